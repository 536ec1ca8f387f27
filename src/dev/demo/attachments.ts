import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { MessageRecord } from '../standin/index.ts';

/** Writes a message's images into the run's folder, named after the step, and says where. */
export async function saveAttachments(
  message: MessageRecord,
  outDir: string,
  index: number,
  write: (text: string) => void,
): Promise<void> {
  for (const file of message.attachments) {
    const path = join(outDir, `${String(index).padStart(2, '0')}-${file.filename}`);
    await writeFile(path, file.bytes);
    write(`  ↳ chart written to ${path}\n`);
  }
}
