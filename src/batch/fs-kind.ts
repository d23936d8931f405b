/**
 * Whether a folder needs a polling watcher: inotify sees only changes made through the local kernel, so writes by
 * other machines to an NFS/SMB/sshfs share never raise an event (the paperless-ngx "missed files" reports).
 * Reads the mount table (/proc/mounts) and looks at the filesystem type of the longest mount point above the folder.
 */
import { readFileSync, realpathSync } from "node:fs";
import path from "node:path";

/** Filesystem types whose remote writes inotify does not report. */
export const NETWORK_FS_TYPES = new Set([
  "nfs",
  "nfs4",
  "cifs",
  "smb",
  "smb2",
  "smbfs",
  "smb3",
  "ncpfs",
  "afs",
  "9p",
  "virtiofs",
  "ceph",
  "glusterfs",
  "lustre",
  "gpfs",
  "davfs",
  "fuse.sshfs",
  "fuse.rclone",
  "fuse.s3fs",
  "fuse.glusterfs",
  "fuse.davfs2",
  "fuse.cephfs",
  "fuse.gcsfuse",
  "fuse.juicefs",
  "fuse.mergerfs",
  "vboxsf",
  "prl_fs",
  "fuse.vmhgfs-fuse",
  "vmhgfs",
  "drvfs",
]);

export interface MountEntry {
  mountPoint: string;
  fsType: string;
}

export function parseMounts(text: string): MountEntry[] {
  return (
    text
      .split("\n")
      .map((line) => line.split(" "))
      .filter((f) => f.length >= 3)
      // /proc/mounts escapes spaces and tabs in mount points as octal.
      .map((f) => ({
        mountPoint: f[1]!.replace(/\\(\d{3})/g, (_, o) => String.fromCharCode(parseInt(o, 8))),
        fsType: f[2]!,
      }))
  );
}

/** The filesystem type a folder lives on, or null when the mount table cannot be read (not Linux). */
export function filesystemTypeOf(dir: string, mountsText?: string): string | null {
  let text = mountsText;
  if (text === undefined) {
    try {
      text = readFileSync("/proc/mounts", "utf8");
    } catch {
      return null;
    }
  }
  let real = path.resolve(dir);
  try {
    real = realpathSync(dir);
  } catch {
    // a folder that does not exist yet: judge by its path
  }
  let best: MountEntry | null = null;
  for (const m of parseMounts(text)) {
    const inside =
      m.mountPoint === "/" ||
      real === m.mountPoint ||
      real.startsWith(m.mountPoint.endsWith("/") ? m.mountPoint : m.mountPoint + "/");
    if (inside && (!best || m.mountPoint.length >= best.mountPoint.length)) best = m;
  }
  return best?.fsType ?? null;
}

export function needsPolling(dir: string, mountsText?: string): boolean {
  const type = filesystemTypeOf(dir, mountsText);
  return type !== null && (NETWORK_FS_TYPES.has(type) || (type.startsWith("fuse.") && type !== "fuse.lxcfs"));
}
