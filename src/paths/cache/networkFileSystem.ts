import { statfs } from 'node:fs/promises';

/**
 * Linux `statfs` magic numbers of file systems whose changes may come from another machine (or through a
 * user-space server), which a local inotify watch never hears of: NFS, SMB/CIFS, 9p (WSL's Windows drives),
 * FUSE (sshfs, rclone), Ceph, AFS, Coda, GFS2, OCFS2, Lustre.
 */
const NETWORK_FILE_SYSTEMS = new Set([
  0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x01021997, 0x65735546, 0x00c36400, 0x5346414f, 0x73757245, 0x01161970, 0x7461636f, 0x0bd00bd0,
]);

/** Whether a watch of `root` could miss changes; elsewhere than Linux the watcher is trusted. */
export async function isNetworkFileSystem(root: string): Promise<boolean> {
  if (process.platform !== 'linux') return false;
  const { type } = await statfs(root);
  // `type` is a signed 32-bit value on some builds; compare as unsigned.
  return NETWORK_FILE_SYSTEMS.has(type >>> 0);
}
