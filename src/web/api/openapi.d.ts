// Generated from GET /api/v1/openapi.json by `npm run gen:web-api` (openapi-typescript): do not edit.
// test/web/openApiTypes.test.ts fails when the routes' schemas changed and this file was not regenerated.
export interface paths {
  '/api/v1/health': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Liveness probe */
    get: operations['getHealth'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/session': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Who is signed in (401 when nobody) */
    get: operations['getSession'];
    put?: never;
    /** Sign a browser in: trade the token (body or bearer) for the session cookie */
    post: operations['postSession'];
    /** Sign the browser out */
    delete: operations['deleteSession'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/hosts': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every host that ever said hello */
    get: operations['getHosts'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/hosts/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One host */
    get: operations['getHostsById'];
    put?: never;
    post?: never;
    /** Remove a host: its credential, its record, and its link (closed with 4006) */
    delete: operations['deleteHostsById'];
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/hosts/{id}/models': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The models the host’s agents can run */
    get: operations['getHostsByIdModels'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/hosts/{id}/directories': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One level of a folder on the host (folder picker) */
    get: operations['getHostsByIdDirectories'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/hosts/enrollments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Make a one-time enrollment code for a new host (npm run daemon -- --enroll CODE) */
    post: operations['postHostsEnrollments'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/hosts/enroll': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Trade an enrollment code for the host’s own credential (the daemon calls this) */
    post: operations['postHostsEnroll'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/projects': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Every project */
    get: operations['getProjects'];
    put?: never;
    /** Create a project on a folder of a host */
    post: operations['postProjects'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/projects/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One project */
    get: operations['getProjectsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    /** Rename a project or change how its threads work: default workspace, branch prefix, setup script */
    patch: operations['patchProjectsById'];
    trace?: never;
  };
  '/api/v1/projects/{id}/paths': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Fuzzy path search in the project folder (quick-open) */
    get: operations['getProjectsByIdPaths'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/environments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Register a folder of a host as an environment */
    post: operations['postEnvironments'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/environments/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One environment */
    get: operations['getEnvironmentsById'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/environments/{id}/paths': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Fuzzy path search in the environment folder */
    get: operations['getEnvironmentsByIdPaths'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Threads, of one project or all */
    get: operations['getThreads'];
    put?: never;
    /** Create a thread (and run its first prompt) */
    post: operations['postThreads'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** One thread with its status */
    get: operations['getThreadsById'];
    put?: never;
    post?: never;
    /** Delete a thread: its open turn is stopped, its readers told, its rows, agent session and worktree removed */
    delete: operations['deleteThreadsById'];
    options?: never;
    head?: never;
    /** Rename, archive or unarchive a thread, keep its agent running, or change its permission mode */
    patch: operations['patchThreadsById'];
    trace?: never;
  };
  '/api/v1/threads/{id}/messages': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Prompt the thread’s agent (a follow-up while a turn runs) */
    post: operations['postThreadsByIdMessages'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/stop': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Stop the running turn */
    post: operations['postThreadsByIdStop'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/approvals/{approvalId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Answer a question of the thread’s agent with one of the options it offered */
    post: operations['postThreadsByIdApprovalsByApprovalId'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/diff': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The thread’s changes: uncommitted, of its branch (worktree threads) or of one turn */
    get: operations['getThreadsByIdDiff'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/review-comments': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The thread’s review comments, oldest first; a draft whose line changed since reads `stale` */
    get: operations['getThreadsByIdReviewComments'];
    put?: never;
    /** Comment on a line of the thread’s diff (a draft until a prompt sends it) */
    post: operations['postThreadsByIdReviewComments'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/review-comments/{commentId}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    post?: never;
    /** Drop a review comment */
    delete: operations['deleteThreadsByIdReviewCommentsByCommentId'];
    options?: never;
    head?: never;
    /** Change a review comment’s text */
    patch: operations['patchThreadsByIdReviewCommentsByCommentId'];
    trace?: never;
  };
  '/api/v1/threads/{id}/revert': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Put the thread’s files back as they were at the start of a turn (the state before is kept for unrevert) */
    post: operations['postThreadsByIdRevert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/unrevert': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Undo the thread’s newest revert: its files as they were before it */
    post: operations['postThreadsByIdUnrevert'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/fork': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Fork a thread at the end of a turn: its rows, its files and its conversation up to there, in a new thread */
    post: operations['postThreadsByIdFork'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/commit': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Commit the thread’s changes (all, or `paths`) on its branch; `generate` has its agent write the message */
    post: operations['postThreadsByIdCommit'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/push': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Push the thread’s branch (`git push -u`; default its upstream remote, else origin) */
    post: operations['postThreadsByIdPush'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/pull-request': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Open a pull request of the thread’s branch with the host’s forge CLI (gh, glab), pushing first if needed */
    post: operations['postThreadsByIdPullRequest'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/events': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** A page of the thread’s events: after a cursor, before one, or the last rows */
    get: operations['getThreadsByIdEvents'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/threads/{id}/events/stream': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** The thread’s events live (SSE), resuming after afterSeq or Last-Event-ID */
    get: operations['getThreadsByIdEventsStream'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/files/read': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    get?: never;
    put?: never;
    /** Read a file inside a registered project or environment folder */
    post: operations['postFilesRead'];
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/search': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** Search thread titles, what users sent, agent answers and command lines */
    get: operations['getSearch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/api/v1/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /** This document (OpenAPI 3.1) */
    get: operations['getOpenapiJson'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    Problem: {
      type: string;
      title: string;
      status: number;
      code: string;
      detail: string;
    } & {
      [key: string]: unknown;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: never;
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  getHealth: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The server runs */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            status: 'ok';
            hostDaemonProtocolVersion: number;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed in */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            signedIn: true;
            /** @enum {string} */
            via: 'bearer' | 'session';
            expiresAt: string | null;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          token?: string;
        };
      };
    };
    responses: {
      /** @description Signed in; Set-Cookie ats_session */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            signedIn: true;
            /** @enum {string} */
            via: 'bearer' | 'session';
            expiresAt: string | null;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteSession: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Signed out; the cookie is cleared */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getHosts: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Hosts */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            platform: string;
            protocolVersion: number;
            providers: string[];
            lastSeenAt: string;
            embedded?: boolean;
            online: boolean;
          }[];
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getHostsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The host */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            platform: string;
            protocolVersion: number;
            providers: string[];
            lastSeenAt: string;
            embedded?: boolean;
            online: boolean;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteHostsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Removed; it attaches again only after a new enrollment */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getHostsByIdModels: {
    parameters: {
      query?: {
        provider?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Models, and agents whose catalog could not be read */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            models: {
              provider: string;
              model: string;
              name: string;
              contextWindow?: number;
              maxTokens?: number;
              reasoning?: boolean;
              available: boolean;
            }[];
            errors: {
              provider: string;
              message: string;
            }[];
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getHostsByIdDirectories: {
    parameters: {
      query?: {
        path?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The folder’s entries */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            path: string;
            entries: {
              /** @enum {string} */
              kind: 'file' | 'directory';
              name: string;
              path: string;
            }[];
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postHostsEnrollments: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The code, shown this once, and when it expires */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            code: string;
            expiresAt: number;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postHostsEnroll: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          code: string;
          hostId: string;
        };
      };
    };
    responses: {
      /** @description The host credential, shown this once */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            hostId: string;
            credential: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getProjects: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Projects */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            source: {
              /** @constant */
              type: 'local_path';
              path: string;
              hostId: string;
            };
            environmentId: string;
            createdAt: string;
            /** @enum {string} */
            defaultWorkspace?: 'checkout' | 'worktree';
            branchPrefix?: string;
            setupScript?: string;
          }[];
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postProjects: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name: string;
          source: {
            /** @constant */
            type: 'local_path';
            path: string;
            hostId: string;
          };
        };
      };
    };
    responses: {
      /** @description The project */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            source: {
              /** @constant */
              type: 'local_path';
              path: string;
              hostId: string;
            };
            environmentId: string;
            createdAt: string;
            /** @enum {string} */
            defaultWorkspace?: 'checkout' | 'worktree';
            branchPrefix?: string;
            setupScript?: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getProjectsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The project */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            source: {
              /** @constant */
              type: 'local_path';
              path: string;
              hostId: string;
            };
            environmentId: string;
            createdAt: string;
            /** @enum {string} */
            defaultWorkspace?: 'checkout' | 'worktree';
            branchPrefix?: string;
            setupScript?: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  patchProjectsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          name?: string;
          /** @enum {string} */
          defaultWorkspace?: 'checkout' | 'worktree';
          branchPrefix?: string;
          setupScript?: string | null;
        };
      };
    };
    responses: {
      /** @description The project as changed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            name: string;
            source: {
              /** @constant */
              type: 'local_path';
              path: string;
              hostId: string;
            };
            environmentId: string;
            createdAt: string;
            /** @enum {string} */
            defaultWorkspace?: 'checkout' | 'worktree';
            branchPrefix?: string;
            setupScript?: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getProjectsByIdPaths: {
    parameters: {
      query?: {
        query?: string;
        limit?: string;
        includeFiles?: 'true' | 'false';
        includeDirectories?: 'true' | 'false';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ranked paths with matched positions */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            paths: {
              /** @enum {string} */
              kind: 'file' | 'directory';
              path: string;
              name: string;
              score: number;
              positions: number[];
            }[];
            truncated: boolean;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postEnvironments: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          hostId: string;
          path: string;
        };
      };
    };
    responses: {
      /** @description The environment */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            hostId: string;
            path: string;
            createdAt: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEnvironmentsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The environment */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            hostId: string;
            path: string;
            createdAt: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getEnvironmentsByIdPaths: {
    parameters: {
      query?: {
        query?: string;
        limit?: string;
        includeFiles?: 'true' | 'false';
        includeDirectories?: 'true' | 'false';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Ranked paths with matched positions */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            paths: {
              /** @enum {string} */
              kind: 'file' | 'directory';
              path: string;
              name: string;
              score: number;
              positions: number[];
            }[];
            truncated: boolean;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getThreads: {
    parameters: {
      query?: {
        projectId?: string;
        archived?: 'true' | 'false';
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Threads with their status */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            projectId: string;
            environmentId: string;
            hostId: string;
            provider: string;
            model: string;
            title: string;
            permissionMode?: string;
            archived: boolean;
            keepAgentRunning: boolean;
            providerThreadId?: string;
            createdAt: string;
            agentError?: {
              code: string;
              message: string;
              at: string;
            };
            workspace: {
              /** @enum {string} */
              kind: 'checkout' | 'worktree';
              path: string;
              branch: string | null;
              baseRef: string | null;
              baseCommit: string | null;
              /** @enum {string} */
              state: 'creating' | 'ready' | 'removed' | 'failed';
            };
            forkedFrom?: {
              threadId: string;
              seq: number;
              turnId: string | null;
            };
            pullRequests: {
              url: string;
              number: number;
              /** @enum {string} */
              state: 'open' | 'draft' | 'closed' | 'merged';
              base: string;
              head: string;
            }[];
            /** @enum {string} */
            agent: 'stopped' | 'starting' | 'running';
            /** @enum {string} */
            status: 'active' | 'idle';
            lastTurnStatus: ('completed' | 'failed' | 'interrupted') | null;
            runtime: {
              displayStatus: string;
              hostReconnectGraceExpiresAt: number | null;
              /** @enum {string} */
              activity: 'idle' | 'working' | 'waiting-for-approval';
              pendingApprovalIds: string[];
            };
          }[];
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreads: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          projectId: string;
          environmentId?: string;
          provider: string;
          model: string;
          title: string;
          prompt?: string;
          /** @enum {string} */
          permissionMode?: 'ask' | 'accept-edits' | 'full-access';
          /** @enum {string} */
          workspace?: 'checkout' | 'worktree';
          baseRef?: string;
          branch?: string | null;
        };
      };
    };
    responses: {
      /** @description The thread */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            projectId: string;
            environmentId: string;
            hostId: string;
            provider: string;
            model: string;
            title: string;
            permissionMode?: string;
            archived: boolean;
            keepAgentRunning: boolean;
            providerThreadId?: string;
            createdAt: string;
            agentError?: {
              code: string;
              message: string;
              at: string;
            };
            workspace: {
              /** @enum {string} */
              kind: 'checkout' | 'worktree';
              path: string;
              branch: string | null;
              baseRef: string | null;
              baseCommit: string | null;
              /** @enum {string} */
              state: 'creating' | 'ready' | 'removed' | 'failed';
            };
            forkedFrom?: {
              threadId: string;
              seq: number;
              turnId: string | null;
            };
            pullRequests: {
              url: string;
              number: number;
              /** @enum {string} */
              state: 'open' | 'draft' | 'closed' | 'merged';
              base: string;
              head: string;
            }[];
            /** @enum {string} */
            agent: 'stopped' | 'starting' | 'running';
            /** @enum {string} */
            status: 'active' | 'idle';
            lastTurnStatus: ('completed' | 'failed' | 'interrupted') | null;
            runtime: {
              displayStatus: string;
              hostReconnectGraceExpiresAt: number | null;
              /** @enum {string} */
              activity: 'idle' | 'working' | 'waiting-for-approval';
              pendingApprovalIds: string[];
            };
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getThreadsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The thread */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            projectId: string;
            environmentId: string;
            hostId: string;
            provider: string;
            model: string;
            title: string;
            permissionMode?: string;
            archived: boolean;
            keepAgentRunning: boolean;
            providerThreadId?: string;
            createdAt: string;
            agentError?: {
              code: string;
              message: string;
              at: string;
            };
            workspace: {
              /** @enum {string} */
              kind: 'checkout' | 'worktree';
              path: string;
              branch: string | null;
              baseRef: string | null;
              baseCommit: string | null;
              /** @enum {string} */
              state: 'creating' | 'ready' | 'removed' | 'failed';
            };
            forkedFrom?: {
              threadId: string;
              seq: number;
              turnId: string | null;
            };
            pullRequests: {
              url: string;
              number: number;
              /** @enum {string} */
              state: 'open' | 'draft' | 'closed' | 'merged';
              base: string;
              head: string;
            }[];
            /** @enum {string} */
            agent: 'stopped' | 'starting' | 'running';
            /** @enum {string} */
            status: 'active' | 'idle';
            lastTurnStatus: ('completed' | 'failed' | 'interrupted') | null;
            runtime: {
              displayStatus: string;
              hostReconnectGraceExpiresAt: number | null;
              /** @enum {string} */
              activity: 'idle' | 'working' | 'waiting-for-approval';
              pendingApprovalIds: string[];
            };
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteThreadsById: {
    parameters: {
      query?: {
        deleteBranch?: 'true' | 'false';
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Deleted: the id answers 404 from now on */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  patchThreadsById: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          title?: string;
          archived?: boolean;
          keepAgentRunning?: boolean;
          /** @enum {string} */
          permissionMode?: 'ask' | 'accept-edits' | 'full-access';
        };
      };
    };
    responses: {
      /** @description The thread as changed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            projectId: string;
            environmentId: string;
            hostId: string;
            provider: string;
            model: string;
            title: string;
            permissionMode?: string;
            archived: boolean;
            keepAgentRunning: boolean;
            providerThreadId?: string;
            createdAt: string;
            agentError?: {
              code: string;
              message: string;
              at: string;
            };
            workspace: {
              /** @enum {string} */
              kind: 'checkout' | 'worktree';
              path: string;
              branch: string | null;
              baseRef: string | null;
              baseCommit: string | null;
              /** @enum {string} */
              state: 'creating' | 'ready' | 'removed' | 'failed';
            };
            forkedFrom?: {
              threadId: string;
              seq: number;
              turnId: string | null;
            };
            pullRequests: {
              url: string;
              number: number;
              /** @enum {string} */
              state: 'open' | 'draft' | 'closed' | 'merged';
              base: string;
              head: string;
            }[];
            /** @enum {string} */
            agent: 'stopped' | 'starting' | 'running';
            /** @enum {string} */
            status: 'active' | 'idle';
            lastTurnStatus: ('completed' | 'failed' | 'interrupted') | null;
            runtime: {
              displayStatus: string;
              hostReconnectGraceExpiresAt: number | null;
              /** @enum {string} */
              activity: 'idle' | 'working' | 'waiting-for-approval';
              pendingApprovalIds: string[];
            };
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdMessages: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          prompt: string;
          reviewCommentIds?: string[];
        };
      };
    };
    responses: {
      /** @description Accepted */
      202: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            threadId: string;
            followUp: boolean;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdStop: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Seqs of the rows the stop stored */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            threadId: string;
            seqs: number[];
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdApprovalsByApprovalId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        approvalId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          optionId: string;
        };
      };
    };
    responses: {
      /** @description The answer the agent got */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            approvalId: string;
            optionId: string;
            /** @enum {string} */
            optionKind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
            /** @constant */
            decidedBy: 'user';
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getThreadsByIdDiff: {
    parameters: {
      query: {
        scope: 'uncommitted' | 'branch' | 'turn';
        turnId?: string;
        maxFiles?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The host’s git diff */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @enum {string} */
            scope: 'uncommitted' | 'branch' | 'turn';
            base: string;
            head: string;
            turnId?: string;
            files: {
              path: string;
              oldPath?: string;
              /** @enum {string} */
              status: 'added' | 'modified' | 'deleted' | 'renamed';
              binary: boolean;
              additions: number;
              deletions: number;
              hunks: {
                oldStart: number;
                oldLines: number;
                newStart: number;
                newLines: number;
                lines: {
                  /** @enum {string} */
                  kind: 'context' | 'add' | 'del';
                  text: string;
                }[];
              }[];
              truncated?: boolean;
            }[];
            truncated: boolean;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getThreadsByIdReviewComments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Review comments */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            path: string;
            line: number;
            /** @enum {string} */
            side: 'new' | 'old';
            text: string;
            snippet: string;
            /** @enum {string} */
            state: 'draft' | 'stale' | 'sent';
          }[];
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdReviewComments: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          path: string;
          line: number;
          /** @enum {string} */
          side: 'new' | 'old';
          text: string;
          /** @enum {string} */
          scope: 'uncommitted' | 'branch' | 'turn';
        };
      };
    };
    responses: {
      /** @description The comment, with the line it points at */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            path: string;
            line: number;
            /** @enum {string} */
            side: 'new' | 'old';
            text: string;
            snippet: string;
            /** @enum {string} */
            state: 'draft' | 'stale' | 'sent';
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  deleteThreadsByIdReviewCommentsByCommentId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        commentId: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Dropped */
      204: {
        headers: {
          [name: string]: unknown;
        };
        content?: never;
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  patchThreadsByIdReviewCommentsByCommentId: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
        commentId: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          text: string;
        };
      };
    };
    responses: {
      /** @description The comment as changed */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            path: string;
            line: number;
            /** @enum {string} */
            side: 'new' | 'old';
            text: string;
            snippet: string;
            /** @enum {string} */
            state: 'draft' | 'stale' | 'sent';
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdRevert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          turnId: string;
        };
      };
    };
    responses: {
      /** @description Reverted: the stored state’s ref and the turns undone */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            turnId: string;
            snapshotRef: string;
            undoneTurnIds: string[];
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdUnrevert: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Unreverted */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            turnId: string;
            snapshotRef: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdFork: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          turnId?: string;
          title?: string;
          /** @enum {string} */
          workspace?: 'checkout' | 'worktree';
        };
      };
    };
    responses: {
      /** @description The new thread */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            id: string;
            projectId: string;
            environmentId: string;
            hostId: string;
            provider: string;
            model: string;
            title: string;
            permissionMode?: string;
            archived: boolean;
            keepAgentRunning: boolean;
            providerThreadId?: string;
            createdAt: string;
            agentError?: {
              code: string;
              message: string;
              at: string;
            };
            workspace: {
              /** @enum {string} */
              kind: 'checkout' | 'worktree';
              path: string;
              branch: string | null;
              baseRef: string | null;
              baseCommit: string | null;
              /** @enum {string} */
              state: 'creating' | 'ready' | 'removed' | 'failed';
            };
            forkedFrom?: {
              threadId: string;
              seq: number;
              turnId: string | null;
            };
            pullRequests: {
              url: string;
              number: number;
              /** @enum {string} */
              state: 'open' | 'draft' | 'closed' | 'merged';
              base: string;
              head: string;
            }[];
            /** @enum {string} */
            agent: 'stopped' | 'starting' | 'running';
            /** @enum {string} */
            status: 'active' | 'idle';
            lastTurnStatus: ('completed' | 'failed' | 'interrupted') | null;
            runtime: {
              displayStatus: string;
              hostReconnectGraceExpiresAt: number | null;
              /** @enum {string} */
              activity: 'idle' | 'working' | 'waiting-for-approval';
              pendingApprovalIds: string[];
            };
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdCommit: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          message?: string;
          generate?: boolean;
          paths?: string[];
        };
      };
    };
    responses: {
      /** @description The commit (also the row `git/committed`) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            sha: string;
            message: string;
            files: string[];
            branch: string | null;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdPush: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          remote?: string;
        };
      };
    };
    responses: {
      /** @description What was pushed (also the row `git/pushed`) */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            remote: string;
            branch: string;
            sha: string;
            pushed: boolean;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postThreadsByIdPullRequest: {
    parameters: {
      query?: never;
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          title?: string;
          body?: string;
          base?: string;
          draft?: boolean;
          generate?: boolean;
        };
      };
    };
    responses: {
      /** @description The pull request as the thread keeps it (also the row `pr/opened`) */
      201: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            pullRequest: {
              url: string;
              number: number;
              /** @enum {string} */
              state: 'open' | 'draft' | 'closed' | 'merged';
              base: string;
              head: string;
            };
            push: {
              remote: string;
              branch: string;
              sha: string;
              pushed: boolean;
            } | null;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getThreadsByIdEvents: {
    parameters: {
      query?: {
        afterSeq?: string;
        beforeSeq?: string;
        tail?: 'true' | 'false';
        limit?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Rows in seq order */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': (
            | {
                threadId: string;
                /** @constant */
                type: 'turn/started';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  /** @enum {string} */
                  origin: 'client' | 'agent';
                  processEpoch?: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'turn/completed';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  /** @enum {string} */
                  status: 'completed' | 'failed' | 'interrupted';
                  providerCheckpointId: string;
                  error?: {
                    message: string;
                  };
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'item/started';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  item:
                    | {
                        /** @constant */
                        type: 'userMessage';
                        id: string;
                        content: (
                          | {
                              /** @constant */
                              type: 'text';
                              text: string;
                            }
                          | {
                              /** @constant */
                              type: 'image';
                              url: string;
                            }
                        )[];
                        reviewComments?: {
                          path: string;
                          line: number;
                          /** @enum {string} */
                          side: 'new' | 'old';
                          snippet: string;
                          text: string;
                        }[];
                      }
                    | {
                        /** @constant */
                        type: 'agentMessage';
                        id: string;
                        text: string;
                      }
                    | {
                        /** @constant */
                        type: 'reasoning';
                        id: string;
                        text: string;
                      }
                    | {
                        /** @constant */
                        type: 'commandExecution';
                        id: string;
                        command: string;
                        /** @enum {string} */
                        status: 'inProgress' | 'completed' | 'failed';
                        aggregatedOutput: string;
                        exitCode?: number;
                      }
                    | {
                        /** @constant */
                        type: 'fileChange';
                        id: string;
                        tool: string;
                        path: string;
                        /** @enum {string} */
                        status: 'inProgress' | 'completed' | 'failed';
                        diff?: string;
                        error?: string;
                      }
                    | {
                        /** @constant */
                        type: 'toolCall';
                        id: string;
                        tool: string;
                        arguments: unknown;
                        /** @enum {string} */
                        status: 'inProgress' | 'completed' | 'failed';
                        result?: unknown;
                      };
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'item/agentMessage/delta';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  itemId: string;
                  delta: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'item/commandExecution/outputDelta';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  itemId: string;
                  delta: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'item/completed';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  item:
                    | {
                        /** @constant */
                        type: 'userMessage';
                        id: string;
                        content: (
                          | {
                              /** @constant */
                              type: 'text';
                              text: string;
                            }
                          | {
                              /** @constant */
                              type: 'image';
                              url: string;
                            }
                        )[];
                        reviewComments?: {
                          path: string;
                          line: number;
                          /** @enum {string} */
                          side: 'new' | 'old';
                          snippet: string;
                          text: string;
                        }[];
                      }
                    | {
                        /** @constant */
                        type: 'agentMessage';
                        id: string;
                        text: string;
                      }
                    | {
                        /** @constant */
                        type: 'reasoning';
                        id: string;
                        text: string;
                      }
                    | {
                        /** @constant */
                        type: 'commandExecution';
                        id: string;
                        command: string;
                        /** @enum {string} */
                        status: 'inProgress' | 'completed' | 'failed';
                        aggregatedOutput: string;
                        exitCode?: number;
                      }
                    | {
                        /** @constant */
                        type: 'fileChange';
                        id: string;
                        tool: string;
                        path: string;
                        /** @enum {string} */
                        status: 'inProgress' | 'completed' | 'failed';
                        diff?: string;
                        error?: string;
                      }
                    | {
                        /** @constant */
                        type: 'toolCall';
                        id: string;
                        tool: string;
                        arguments: unknown;
                        /** @enum {string} */
                        status: 'inProgress' | 'completed' | 'failed';
                        result?: unknown;
                      };
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'thread/tokenUsage/updated';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  tokenUsage: {
                    total: {
                      totalTokens: number;
                      inputTokens: number;
                      cachedInputTokens: number;
                      outputTokens: number;
                    };
                    last: {
                      totalTokens: number;
                      inputTokens: number;
                      cachedInputTokens: number;
                      outputTokens: number;
                    };
                  };
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'thread/contextWindowUsage/updated';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  contextWindowUsage: {
                    usedTokens: number;
                    modelContextWindow: number;
                    estimated: boolean;
                  };
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'provider/unhandled';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  providerId: string;
                  rawType: string;
                  rawEvent: unknown;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'provider/error';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  providerId: string;
                  message: string;
                  willRetry: boolean;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'item/reasoning/delta';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  itemId: string;
                  delta: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'turn/plan/updated';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  plan: {
                    step: string;
                    /** @enum {string} */
                    status: 'pending' | 'inProgress' | 'completed';
                    priority?: string;
                  }[];
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'approval/requested';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  approvalId: string;
                  subject: {
                    kind: string;
                    title: string;
                    toolCallId?: string;
                    command?: string;
                    diff?: string;
                    paths: string[];
                  };
                  options: {
                    optionId: string;
                    name: string;
                    /** @enum {string} */
                    kind: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
                  }[];
                  /** @enum {string} */
                  permissionMode: 'ask' | 'accept-edits' | 'full-access';
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'approval/resolved';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  approvalId: string;
                  /** @enum {string} */
                  decidedBy: 'user' | 'policy' | 'cancelled';
                  optionId?: string;
                  /** @enum {string} */
                  optionKind?: 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';
                  reason?: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'thread/updated';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  title?: string;
                  archived?: boolean;
                  keepAgentRunning?: boolean;
                  /** @enum {string} */
                  permissionMode?: 'ask' | 'accept-edits' | 'full-access';
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'thread/reverted';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  turnId: string;
                  snapshotRef: string;
                  undoneTurnIds: string[];
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'thread/unreverted';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  turnId: string;
                  snapshotRef: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'thread/forked';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  providerThreadId: string;
                  sourceThreadId: string;
                  sourceSeq: number;
                  sourceTurnId: string | null;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'git/committed';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  sha: string;
                  message: string;
                  files: string[];
                  branch?: string | null;
                  recovered?: boolean;
                  providerThreadId: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'git/pushed';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  remote: string;
                  branch: string;
                  sha: string;
                  recovered?: boolean;
                  providerThreadId: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'git/interrupted';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  /** @enum {string} */
                  action: 'commit' | 'push';
                  message: string;
                  providerThreadId: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'pr/opened';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  pullRequest: {
                    url: string;
                    number: number;
                    /** @enum {string} */
                    state: 'open' | 'draft' | 'closed' | 'merged';
                    base: string;
                    head: string;
                  };
                  providerThreadId: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
            | {
                threadId: string;
                /** @constant */
                type: 'pr/state';
                turnId: string | null;
                scope:
                  | {
                      /** @constant */
                      kind: 'turn';
                      turnId: string;
                    }
                  | {
                      /** @constant */
                      kind: 'thread';
                    };
                data: {
                  url: string;
                  number: number;
                  /** @enum {string} */
                  state: 'open' | 'draft' | 'closed' | 'merged';
                  /** @enum {string} */
                  previous: 'open' | 'draft' | 'closed' | 'merged';
                  providerThreadId: string;
                } & {
                  [key: string]: unknown;
                };
                id: string;
                seq: number;
                createdAt: string;
              }
          )[];
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getThreadsByIdEventsStream: {
    parameters: {
      query?: {
        afterSeq?: string;
      };
      header?: never;
      path: {
        id: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Server-Sent Events: `id: <seq>`, `data: <row>` */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'text/event-stream': string;
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  postFilesRead: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody: {
      content: {
        'application/json': {
          hostId: string;
          path: string;
        };
      };
    };
    responses: {
      /** @description The file’s content */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            content: string;
            /** @enum {string} */
            encoding: 'utf8' | 'base64';
            sizeBytes: number;
            sha256: string;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getSearch: {
    parameters: {
      query: {
        q: string;
        projectId?: string;
        archived?: 'true' | 'false';
        limit?: number;
        cursor?: string;
      };
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description Hits, best first, and the cursor of the next page */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            hits: {
              threadId: string;
              seq: number;
              /** @enum {string} */
              kind: 'title' | 'user' | 'agent' | 'command';
              title: string;
              excerpt: string;
              marks: [number, number][];
            }[];
            nextCursor: string | null;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
  getOpenapiJson: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description The API document */
      200: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/json': {
            /** @constant */
            openapi: '3.1.0';
            paths: {
              [key: string]: unknown;
            };
          } & {
            [key: string]: unknown;
          };
        };
      };
      /** @description A problem (RFC 9457) with a stable `code` */
      default: {
        headers: {
          [name: string]: unknown;
        };
        content: {
          'application/problem+json': components['schemas']['Problem'];
        };
      };
    };
  };
}
