import type { ChartImage } from '../../src/render/chart/png.ts';

/** The chart a render worker drew; a test that wanted one fails when it was not drawn. */
export async function drawnChart(chart: Promise<ChartImage | undefined>): Promise<ChartImage> {
  const image = await chart;
  if (image === undefined) throw new Error('the chart was not drawn (see the render pool)');
  return image;
}
