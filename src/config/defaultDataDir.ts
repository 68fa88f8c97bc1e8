import os from 'node:os';
import path from 'node:path';

/** The folder's name under the user's data home. */
export const DATA_DIR_NAME = 'agent-thread-service';

/**
 * Where the server keeps its registry, events and token unless told (`ATS_DATA_DIR`): the user's data home
 * (`$XDG_DATA_HOME`, else `~/.local/share`, as opencode and most Linux tools keep theirs), not the folder
 * `npm start` runs in. That folder is usually the service's own clone, which people also open as a project:
 * there the store and its token showed in quick-open (issue 29), `git clean -fdx` deleted every thread, and
 * starting from another folder opened another, empty store.
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, home = os.homedir()): string {
  const dataHome = env.XDG_DATA_HOME;
  // The XDG spec says a relative value is invalid and is to be ignored.
  return path.join(dataHome && path.isAbsolute(dataHome) ? dataHome : path.join(home, '.local', 'share'), DATA_DIR_NAME);
}
