/**
 * Raised whenever daemon-side behaviour changes, even with no wire change, so enrolled daemons take the new
 * behaviour (spec part 9). Exchanged in the hello of every host link; the one place this number lives.
 */
export const HOST_DAEMON_PROTOCOL_VERSION = 157;
