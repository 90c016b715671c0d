// Git's racy-git rule: an entry whose ctime is within the clock's granularity of the moment
// it was looked at may change again without its ctime moving, so it is not trusted until
// it is looked at again. Most Linux file systems keep nanoseconds, moved on a tick of a few
// milliseconds (50 ms covers it); a ctime with no fraction of a second comes from one that
// keeps whole seconds (ext4 with 128-byte inodes, ext3, HFS+; FAT keeps two), and is
// trusted only two seconds later.
const FINE_MS = 50;
const COARSE_MS = 2000;

/** Whether an entry with this ctime, looked at at `seenAt` (ms since the epoch), must be looked at again. */
export function racy(ctimeMs: number, seenAt: number): boolean {
  return ctimeMs >= seenAt - (ctimeMs % 1000 === 0 ? COARSE_MS : FINE_MS);
}
