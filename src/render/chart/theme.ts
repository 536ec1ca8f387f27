/** Chart size: Discord shows 960×480 crisp at scale 1 in both the desktop and mobile clients. */
export const CHART_WIDTH = 960;
export const CHART_HEIGHT = 480;

/**
 * Colours on a solid background close to Discord's dark theme, so a chart reads the same in light and dark
 * clients. Each data colour means one thing across charts: gold is a price, blue a count of sales, green
 * wins, red losses, pink the player of a stat history and teal the player compared with them.
 */
export const Colors = {
  background: '#2b2d31',
  plot: '#313338',
  grid: '#3f4147',
  axis: '#4e5058',
  title: '#f2f3f5',
  text: '#dbdee1',
  muted: '#949ba4',
  price: '#f0b232',
  sales: '#5b8def',
  mmr: '#a78bfa',
  wins: '#23a55a',
  losses: '#f23f43',
  player: '#eb459e',
  rival: '#2dd4bf',
} as const;

export const Fonts = {
  title: 22,
  legend: 13,
  tick: 12,
  label: 15,
  annotation: 14,
  empty: 18,
} as const;

export const MARGIN = 24;

/**
 * `color` (`#rrggbb`) at `alpha` over the opaque `under`, as one opaque colour: what a translucent fill
 * shows there, drawn by resvg without blending each pixel.
 */
export function over(color: string, alpha: number, under: string): string {
  const channel = (hex: string, at: number): number => Number.parseInt(hex.slice(at, at + 2), 16);
  return `#${[1, 3, 5]
    .map((at) => Math.round(channel(color, at) * alpha + channel(under, at) * (1 - alpha)))
    .map((value) => value.toString(16).padStart(2, '0'))
    .join('')}`;
}
