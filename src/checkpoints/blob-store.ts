// Content-addressed blob store beside the sessions (docs/architecture.md, "file checkpoints"): a file's
// content is stored once under its sha256, whatever node or session refers to it, so a hundred turns
// editing one file cost one copy per distinct content. Blobs are written durably (temp + fsync + rename,
// src/session/files.ts) before any manifest naming them is appended, so a manifest never names a
// missing blob. A store that lies inside the workspace (the user keeps sessions there) holds files a
// repository may have committed: `verify` then checks a blob's content against its hash every time it
// is looked up or used, so a planted blob is never restored (docs/reliability.md).
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../session/files';

const HASH_PATTERN = /^[0-9a-f]{64}$/;

export function hashContent(content: Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

export function isBlobHash(value: unknown): value is string {
  return typeof value === 'string' && HASH_PATTERN.test(value);
}

export interface StoreSize {
  blobs: number;
  bytes: number;
}

export class BlobStore {
  private readonly known = new Set<string>();

  /** `verify`: the store's files are untrusted input (a store inside the workspace) */
  constructor(
    readonly dir: string,
    readonly verify = false,
  ) {}

  pathOf(hash: string): string {
    return join(this.dir, 'blobs', hash.slice(0, 2), hash.slice(2));
  }

  /** Stores `content` (no-op when already stored) and returns its hash. */
  async put(content: Buffer): Promise<string> {
    const hash = hashContent(content);
    if (await this.has(hash)) return hash;
    const file = this.pathOf(hash);
    // The folder is made only when the first write finds it missing.
    await writeFileAtomic(file, [content]).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      await mkdir(join(this.dir, 'blobs', hash.slice(0, 2)), { recursive: true });
      await writeFileAtomic(file, [content]);
    });
    this.known.add(hash);
    return hash;
  }

  async has(hash: string): Promise<boolean> {
    if (this.verify) return this.verified(hash);
    if (this.known.has(hash)) return true;
    try {
      await stat(this.pathOf(hash));
      this.known.add(hash);
      return true;
    } catch {
      return false;
    }
  }

  /** True when the blob's content hashes to its name (always, for a store that is not untrusted). */
  async verified(hash: string): Promise<boolean> {
    if (!this.verify) return true;
    const content = await readFile(this.pathOf(hash)).catch(() => undefined);
    return content !== undefined && hashContent(content) === hash;
  }

  async get(hash: string): Promise<Buffer> {
    return readFile(this.pathOf(hash));
  }

  /** Copies a blob to `target` (a temp name the caller renames into place); never over an existing entry (EEXIST). */
  async copyTo(hash: string, target: string): Promise<void> {
    await copyFile(this.pathOf(hash), target, constants.COPYFILE_EXCL);
  }

  async remove(hash: string): Promise<void> {
    this.known.delete(hash);
    await unlink(this.pathOf(hash)).catch(() => undefined);
  }

  /** Every stored blob with its size and modification time. */
  async list(): Promise<{ hash: string; bytes: number; mtimeMs: number }[]> {
    const out: { hash: string; bytes: number; mtimeMs: number }[] = [];
    for (const prefix of await readdirOrEmpty(join(this.dir, 'blobs'))) {
      for (const rest of await readdirOrEmpty(join(this.dir, 'blobs', prefix))) {
        const hash = prefix + rest;
        if (!HASH_PATTERN.test(hash)) continue;
        const info = await stat(this.pathOf(hash)).catch(() => undefined);
        if (info) out.push({ hash, bytes: info.size, mtimeMs: info.mtimeMs });
      }
    }
    return out;
  }

  async size(): Promise<StoreSize> {
    const blobs = await this.list();
    return { blobs: blobs.length, bytes: blobs.reduce((sum, b) => sum + b.bytes, 0) };
  }
}

async function readdirOrEmpty(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}

