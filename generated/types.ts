// Generated from spec/ by `npm run generate`. Do not edit by hand.
export interface paths {
    "/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sessions
         * @description The account's sessions, newest first. Live sessions only unless `all=true`. Every given
         *     filter must match. Without `limit` every match is returned; with it, page with
         *     `next_cursor`.
         *
         *     Filters are validated before use: a malformed one (`filter=abc`, `playerCount=3`,
         *     `playerCount[eq]=1`, a repeated key, more than 16 labels in `filter` or `filterNot`) is 422
         *     with a violation naming the parameter, never ignored.
         *
         *     Lists with `all=true` are answered 4 at a time per account, the others waiting their turn;
         *     a list that waits 30 s without any of them ending is 429 with `Retry-After` (their clients
         *     are taking them slowly; since 1.4.0). An answer whose client takes nothing of it for 30 s is cut.
         */
        get: operations["listSessions"];
        put?: never;
        /**
         * Start a session
         * @description Place a game server of `image` (tag `version`) on a node in `location` with a free slot,
         *     allocate its ports and start it. The session is `created` until its declared ports accept
         *     connections, then `running`. The game server gets `SESSION_ID`, `SESSION_HOST`, one
         *     `PORT_<NAME>` per declared port and the request's `env`.
         *
         *     Warm pools: when the location keeps a warm pool of the image and tag (game servers started
         *     ahead of need, ready and unallocated), a start whose `env` and `args` are exactly the pool's
         *     takes one of them: the answer already says `running`, with the warm server's ports, and the
         *     game server has read its session (id, labels, players) from its SDK before the answer is
         *     sent. Labels are free. A start with other `env` or `args`, or one that finds no free warm
         *     server, is served cold as described above. Each warm server serves exactly one session.
         *
         *     Session ids are unique per account: an id the account has already used (live or ended) is
         *     409; another account's session with the same id does not conflict and stays invisible.
         *
         *     Starts are limited per account and location (defaults, configurable: 5 per second
         *     sustained, plus a burst allowance of 20 more per 10 seconds); past that the answer is 420
         *     with `details: rate_limited` and `Retry-After` saying when the next start is allowed. When
         *     the account's runtime quota is used up the answer is 403; so it is when the labels, args and
         *     players of the account's retained sessions (live, and ended within the retention, a week by
         *     default) would exceed its storage budget (64 MiB by default). Capacity is never over-allocated,
         *     however many starts race.
         *
         *     A label key or env name longer than 128 characters, or labels of more than 98,304 bytes as
         *     JSON text, are 422 (since 1.4.0; see `labels` and `env`).
         */
        post: operations["startSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The session id the caller chose at start (unique within the account).
                 * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
                 */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        /**
         * Get a session
         * @description One session of the account, live or ended.
         */
        get: operations["getSession"];
        put?: never;
        post?: never;
        /**
         * Stop a session
         * @description Stop a live session: it goes `draining` then `shuttingdown` (SIGTERM, a grace period,
         *     then SIGKILL) and ends `exited` with `end_reason: stopped`. A session still `created`
         *     goes straight to `shuttingdown`. 409 if it has already ended.
         */
        delete: operations["stopSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session/player/join": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Add players to a session
         * @description Record players as joined (already joined ones are kept once). Returns the session's players.
         *     A session holds at most 1,024 players (as its game server's SDK connects): a join that would
         *     pass that is refused whole with 409, as is a join to a session that has ended.
         *
         *     Joined players count against the account's storage budget (64 MiB by default) with the
         *     labels and args of its sessions, for as long as their session is retained (live, and ended
         *     within the retention, a week by default): each player its id's bytes and 64 more for its
         *     record. A join whose new players would pass it is refused whole with 403 (`QUOTA_EXCEEDED`,
         *     `details` naming the storage budget). Players that leave give their share back.
         */
        put: operations["joinPlayers"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/session/player/leave": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove players from a session
         * @description Record players as gone. Without `session`, each player leaves whichever live session of the account it is in. Returns the session's remaining players.
         */
        delete: operations["leavePlayers"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/location": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List locations
         * @description Every location with its status, nodes and free capacity.
         */
        get: operations["listLocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/available-location/{image}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List locations where an image can start
         * @description Locations the account may use, with an unlocked node that has a free slot, where the image can run now; or (since 1.5.0) with a ready warm server of a pool that serves a start of the image with no `env` or `args` (its slot is not free, but such a start takes it).
         */
        get: operations["listAvailableLocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/tag/{region}/{image}/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check whether an image tag can run in a location
         * @description Whether `version` is a tag of `image` that the account can start in `region` (a location
         *     id): a tag of the fleet's catalog, or one a registry push registered for the account.
         *     `{"exists": false}` for an unknown tag; 404 when the location or the image is unknown to the
         *     account. The same answer as Gameye's tag-exists, so a Gameye client can check a build
         *     before starting sessions of it.
         */
        get: operations["getTagExists"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a session's logs
         * @description The game server's stdout and stderr. With `follow=true` the response stays open and
         *     streams new output until the session ends.
         *
         *     An account may hold 8 open follows per service instance (operator-configurable; behind a
         *     load balancer over several instances, that many on each); one more is 429 with
         *     `Retry-After`. Reads that do not follow are served 8 at a time per account and instance, the
         *     others waiting their turn; a read that waits 30 s without any of them ending is 429 with
         *     `Retry-After` (since 1.4.0). Follows do not hold up reads. A follow ends within a second of its token being revoked, disabled or
         *     expiring, or its account being disabled. An answer whose client takes nothing of what was
         *     written for 30 s is cut (a follow of a quiet game, which writes nothing, is not).
         */
        get: operations["getSessionLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/artifacts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a session's artifacts
         * @description A tar archive of a file or folder in an ended session's working directory (default: the
         *     whole directory); a session still live is 409.
         *
         *     `path` is relative to the working directory, or absolute as the session saw its own
         *     filesystem (as in Gameye's documentation): `/work/replays` on the Docker runtime, the
         *     working directory's own path on the process runtime. Paths that leave the working directory
         *     (`..`, an absolute path outside it, a symlink out) are 422: only that directory is kept.
         *
         *     The archive is `application/x-tar`, as Gameye clients expect, compressed on the wire with
         *     `Content-Encoding: gzip` when `Accept-Encoding` allows gzip (HTTP clients then unpack it
         *     transparently; `curl --compressed`).
         *
         *     Only regular files, folders and symbolic links (as links) are archived: FIFOs, sockets and
         *     devices a game server left behind are skipped. An account may hold 4 downloads open at once
         *     per service instance, and at most half (rounded up) of the archives an instance streams at
         *     once for all accounts together (2 by default, so 1), so that one account's slow downloads
         *     leave the others room (operator-configurable; behind a load balancer over several instances,
         *     that many on each); one more is 429 with `Retry-After`. A download ends within a second
         *     of its token being revoked, disabled or expiring, or its account being disabled.
         */
        get: operations["downloadArtifacts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream session events
         * @description Server-Sent Events of the account's session state changes. The stream starts with the
         *     current state of every live session (events named `snapshot`), then one `session` event
         *     per change, each with an increasing `id`. Reconnect with `Last-Event-ID` to receive what
         *     happened in between; the replay window keeps the last 10,000 events or 24 hours, whichever
         *     is less. A comment line is sent every 15 s to keep the connection open.
         *
         *     An account may hold 20 open streams per service instance (operator-configurable; behind a
         *     load balancer over several instances, that many on each); one more is 429 with
         *     `Retry-After`. A stream ends within a second of its token being revoked, disabled or
         *     expiring, or its account being disabled.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook subscriptions
         * @description The account's subscriptions; secrets are not shown.
         */
        get: operations["listSubscriptions"];
        put?: never;
        /**
         * Create a webhook subscription
         * @description Register an endpoint that receives every session state change of the account as a signed
         *     POST, retried with exponential backoff (up to 8 attempts) until it answers 2xx.
         *
         *     Needs `session:read` as well as `events:write`: the deliveries carry whole sessions (labels,
         *     ports), which a token that may not read sessions must not receive. An account may have 25
         *     subscriptions (operator-configurable); one more is 409. One subscription per URL (since
         *     1.6.0): the URL is kept in its normalized form (WHATWG URL: scheme and host lower case,
         *     default port and dot segments dropped, no fragment), the one the answer shows, and a second
         *     subscription of the account to the same normalized URL is 409, its `details` naming the one
         *     it has.
         *
         *     The URL must not point inside: a host that is or resolves to a loopback, private,
         *     link-local, unique-local, multicast, unspecified or reserved address is 422 (unless the
         *     operator allows that range), and every delivery checks again the address it connects to.
         */
        post: operations["createSubscription"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get a webhook subscription
         * @description One subscription of the account (its secret is never shown again).
         */
        get: operations["getSubscription"];
        put?: never;
        post?: never;
        /**
         * Delete a webhook subscription
         * @description Stop deliveries to this endpoint.
         */
        delete: operations["deleteSubscription"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/subscription/{id}/delivery": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List a subscription's deliveries
         * @description The delivery log of one subscription, newest first (at most 100 attempts).
         */
        get: operations["listDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List tokens
         * @description The account's tokens that are not revoked, newest first, with their values masked.
         */
        get: operations["listTokens"];
        put?: never;
        /**
         * Create a token
         * @description Mint a bearer token for the caller's account. The full value is in `token` and is shown
         *     only in this response. The new token may hold only scopes the caller's token holds, except
         *     that a caller holding `token:write` may also grant `webhook:repohost`. It never outlives
         *     the caller's token. An account holds at most 500 tokens that are neither revoked nor
         *     expired (the operator may change it): one more is 409 until one is revoked. A token has at
         *     most 8 issuers above it (a root token mints one with 1, which mints one with 2, ...): a token
         *     with 8 minting is 409; mint from one of its issuers instead.
         */
        post: operations["createToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/token/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a token
         * @description Revoke one of the account's tokens for good. Tokens it issued stop working too (a derived
         *     token never outlives its issuer), and their open event streams and log follows close within
         *     a second. A token may revoke itself and the tokens it minted, transitively; a root token of
         *     the account (one no token minted: the bootstrap token, tokens the panel minted) may revoke
         *     any. Any other token is 404, as if unknown.
         */
        delete: operations["revokeToken"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/account": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the caller's account
         * @description The account that owns the calling token, with its runtime quota in minutes. Any valid token may call it.
         */
        get: operations["getAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/webhook/repohost": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Register a pushed image tag
         * @description An image registry's push notification (Docker Hub's payload). The pushed tag of the
         *     account's image named by the last segment of `repository.repo_name` becomes startable.
         *     Unknown images are 404; malformed payloads are 422. An account keeps its 100 newest pushed
         *     tags of each image (by first push): registering one more forgets the oldest.
         */
        post: operations["registerImageTag"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check that the process is alive
         * @description Liveness for a process supervisor or load balancer: 200 whenever the process answers HTTP,
         *     even while it is degraded (a restart would not help a full disk). No authentication.
         */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check that the service can take traffic
         * @description Readiness for a load balancer: 200 `ready` while the store accepts writes and background work
         *     (runtime events, timers, token use flushes, webhook delivery, quota) succeeds; 503 `degraded`
         *     while any of it is failing (a full disk, an I/O error), and while the instance shuts down
         *     (component `shutdown`, since 1.6.0: it still answers requests then). A degraded service still
         *     answers reads; writes it cannot keep answer 503 (a full disk, an unreachable database) or 500.
         *     It retries by itself and is `ready` again once the cause is gone. Each
         *     problem names its component, since when, and the `identifier` its log lines carry. No
         *     authentication.
         */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the service's metrics
         * @description The service's metrics in the Prometheus text exposition format (version 0.0.4), for a
         *     Prometheus server to scrape (`deploy/prometheus.yml`): HTTP requests by operation and
         *     status and their duration; live sessions by location, state and image; starts by result;
         *     start-to-running time; capacity per location and node; quota used by the accounts using the
         *     most; webhook deliveries by result and their lag; open event streams; runtime events by
         *     type; store latency; and the process's own metrics (CPU, memory, event loop, GC).
         *     Protected like every other operation: mint a token with only `metrics:read` for the
         *     scraper.
         *
         *     The metrics are the whole service's (every account's quota use, the fleet's load), so they
         *     are an operator's: only a token of an operator account (`operator: true`, the account the
         *     first start creates) reads them. Any other account's token is 401 even when it holds
         *     `metrics:read` (one granted before 1.4.0); the admin panel no longer grants that scope to
         *     other accounts (422), and their first token leaves it out.
         */
        get: operations["getMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/auth": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the panel session
         * @description The signed-in operator, when the cookie and the `X-CSRF-Token` header go together (the panel checks its stored token after a reload; since 1.7.0 the cookie alone does not read the token).
         */
        get: operations["getAdminSession"];
        put?: never;
        /**
         * Sign in to the admin panel
         * @description Check an operator's email and password and start a panel session: the answer sets the `gsh_admin` cookie (HttpOnly, SameSite=Strict, Secure behind TLS) and carries the CSRF token. A wrong email or password is the same 401, never saying which. Attempts are limited per (email, client address): after 5 failures each further one doubles the wait (1 s, 2 s, ... up to 15 minutes), and one address gets 50 failures across all emails. An address is an IPv4 address (IPv4-mapped IPv6 included) or an IPv6 /64. One email gets 20 failures across all addresses, then one try per wait (doubling, at most a minute), except from addresses it signed in from before. At most one password check runs at a time per email and per address (and two service-wide); an attempt that finds them busy waits its network's turn, up to 30 s. Past any of these, 429 with `Retry-After`; failures from one address never lock the operator out from another, nor from an address they signed in from.
         */
        post: operations["signIn"];
        /**
         * Sign out of the admin panel
         * @description End the panel session and clear its cookie.
         */
        delete: operations["signOut"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Accounts, newest first, optionally filtered by `q` (a part of the name, email or id), one page at a time.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Onboard an account
         * @description Create an account with a runtime quota and the private locations and images it may use. It starts without tokens: add them on its page.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/user/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an account
         * @description The account with its quota and usage.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Update an account
         * @description Change the name, the quota, the allowed private locations and images, or disable the account (every token of a disabled account answers 401).
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/admin/api/user/{id}/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an account's tokens
         * @description The account's tokens that are not deleted, newest first, values masked.
         */
        get: operations["listUserTokens"];
        put?: never;
        /**
         * Add a token to an account
         * @description Mint a token for the account with any scopes, except that only an operator account's token may hold `metrics:read` (the metrics are the whole service's; 422 otherwise). The full value is in `token`, in this response only (an operator can reveal it later; every reveal is audited).
         */
        post: operations["createUserToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/user/{id}/token/{tokenId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a token
         * @description Revoke the token for good, with every token it issued.
         */
        delete: operations["deleteUserToken"];
        options?: never;
        head?: never;
        /**
         * Disable or enable a token
         * @description A disabled token answers 401 until it is enabled again.
         */
        patch: operations["updateUserToken"];
        trace?: never;
    };
    "/admin/api/user/{id}/token/{tokenId}/reveal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reveal a token's value
         * @description Unseal the token's full value. Written to the account's audit log, so it needs the CSRF token like any change.
         */
        post: operations["revealUserToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/user/{id}/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read an account's audit log
         * @description Every change to the account and its tokens, and every reveal of a token value, newest first (the last 500).
         */
        get: operations["listUserAudit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/location": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List every location
         * @description All locations of the fleet, whoever may use them, with their nodes, capacity in use and locks.
         */
        get: operations["listFleetLocations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/node/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Lock, unlock or drain a node
         * @description A locked node takes no new sessions (maintenance). The lock is kept in the database and overrides the fleet file's `locked`.
         */
        patch: operations["updateNode"];
        trace?: never;
    };
    "/admin/api/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List sessions of every account
         * @description The filters of `GET /session`, over every account, plus `account`.
         */
        get: operations["listAllSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/session/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Stop any session
         * @description Stop a session of any account, as `DELETE /session/{id}` does. Name the account with
         *     `account` when several accounts use the id (409 otherwise).
         */
        delete: operations["stopAnySession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/session/{id}/logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the tail of a session's logs
         * @description The last 64 KiB of the game server's output. Name the account with `account` when several
         *     accounts use the id (409 otherwise).
         */
        get: operations["tailSessionLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/image": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the image catalog
         * @description The fleet file's images with their tags, and the tags registry pushes registered, per account.
         */
        get: operations["listImages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the overview of the last hour
         * @description The admin panel's Overview page: samples of the numbers `GET /metrics` exposes, taken at a
         *     fixed interval over the last hour (the newest last): live sessions per location and state,
         *     start-to-running percentiles of the starts that reached `running` in each interval, and the
         *     starts and `420` answers in each interval.
         */
        get: operations["getOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/admin/api/pool": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the warm pools
         * @description Every warm pool (the fleet file's, and those sized in the panel) with its size and how many of its game servers are ready or starting. A warm server is started ahead of need and charged to nobody; `POST /session` for its location, image and tag, with the pool's `env` and `args`, takes one and answers `running` at once.
         */
        get: operations["listWarmPools"];
        /**
         * Size a warm pool
         * @description Sets how many warm game servers a (location, image, tag) keeps, over the fleet file's `warm` (kept in the database). The pool refills or shrinks in the background; a pool the fleet file does not name runs with no `env` and no `args`. Not where the runtime cannot hand a warm game server its session (422). On Docker that is a location with no engine on the service's machine (`unix://`), or several instances sharing a PostgreSQL store.
         */
        put: operations["sizeWarmPool"];
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
        /**
         * @description The state of a session. Transitions (the only ones possible):
         *
         *     | from | to |
         *     |---|---|
         *     | created | running, dead, shuttingdown, server_unreachable |
         *     | running | restarting, draining, dead, server_unreachable |
         *     | restarting | running, dead, shuttingdown, server_unreachable |
         *     | draining | shuttingdown, server_unreachable |
         *     | shuttingdown | exited, server_unreachable |
         *     | server_unreachable | running, dead |
         *
         *     `created`: placed on a node, game server starting. `running`: its declared ports accept
         *     connections. `restarting`: crashed and being restarted (only with `restart: true`).
         *     `draining`: a stop, ttl or quota end was requested. `shuttingdown`: the game server was sent
         *     SIGTERM and has a grace period. `server_unreachable`: the node lost track of it.
         *     `exited` and `dead` are final.
         * @example running
         * @enum {string}
         */
        SessionStatus: "created" | "running" | "restarting" | "draining" | "shuttingdown" | "server_unreachable" | "exited" | "dead";
        PortMapping: {
            /**
             * @example udp
             * @enum {string}
             */
            type: "tcp" | "udp";
            /**
             * @description The port the game server listens on (as declared by the image).
             * @example 7777
             */
            container: number;
            /**
             * @description The port allocated on the node's host address; connect here.
             * @example 20001
             */
            host: number;
            /**
             * @description The port's declared name (the game server sees `PORT_<NAME>`).
             * @example game
             */
            name?: string;
        };
        /**
         * @description String keys to string values: at most 64 entries, each key at most 128 characters and each
         *     value at most 1024 characters (since 1.4.0: a longer key is 422; OpenAPI 3.0 has no
         *     `propertyNames`, so the key rule is stated here and enforced by the service). A map whose
         *     keys follow a naming rule (a session's `env`) states the rule in its own description, and a
         *     key that breaks either is 422 with one violation per key, `field` naming the key
         *     (`body.env.<key>`, `body.labels.<key>`; a key past 64 characters is cut there, see `Error`)
         *     and `description` stating the rule.
         * @example {
         *       "mode": "ranked"
         *     }
         */
        StringMap: {
            [key: string]: string;
        };
        Players: {
            /**
             * @example [
             *       "player-1",
             *       "player-2"
             *     ]
             */
            joined: string[];
            /** @example 2 */
            joinedCount: number;
        };
        /**
         * @description Why a session ended: `stopped` (DELETE /session/{id}), `exited` (the game server quit with
         *     code 0), `crashed` (non-zero exit or signal, without restart), `ttl_expired`,
         *     `quota_exhausted`, `start_failed` (it could not be launched, exited before running, or was
         *     not running by its image's start deadline, 60 seconds unless the fleet says otherwise),
         *     `node_lost`. Where a record may be live, the field that holds it is nullable (null while live).
         * @example stopped
         * @enum {string}
         */
        EndReason: "stopped" | "exited" | "crashed" | "ttl_expired" | "quota_exhausted" | "start_failed" | "node_lost";
        Session: {
            /** @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44 */
            id: string;
            /** @example echo */
            image: string;
            /** @example latest */
            tag: string;
            /** @example local-a */
            location: string;
            /**
             * @description The address to connect to.
             * @example 127.0.0.1
             */
            host: string;
            /**
             * Format: int64
             * @description When the session was created, unix milliseconds.
             * @example 1795000000000
             */
            created: number;
            /**
             * Format: int64
             * @description When it first became running, unix milliseconds; null before. Quota is charged from
             *     `created` (the launch) to `ended`, to the second, whether or not it ever ran.
             * @example 1795000000500
             */
            started: number | null;
            /**
             * @description Allocated host port per declared port, keyed `<container>/<type>`.
             * @example {
             *       "7777/udp": 20001,
             *       "7778/tcp": 20002
             *     }
             */
            port: {
                [key: string]: number;
            };
            ports: components["schemas"]["PortMapping"][];
            status: components["schemas"]["SessionStatus"];
            labels: components["schemas"]["StringMap"];
            players: components["schemas"]["Players"];
            /**
             * @description Whether the game server is restarted when it crashes (the start's `restart`). Always sent; required since 1.6.0.
             * @example false
             */
            restart: boolean;
            /**
             * Format: int64
             * @description When the ttl runs out, unix milliseconds; null without ttl. Always sent; required since 1.6.0.
             * @example null
             */
            expires: number | null;
            /**
             * Format: int64
             * @description When the session ended, unix milliseconds; null while live.
             * @example null
             */
            ended: number | null;
            /**
             * @description The game server's exit code once it ended; null while live or when killed by a signal.
             * @example null
             */
            exit_code: number | null;
            /**
             * @description Why the session ended (see EndReason); null while live.
             * @example null
             */
            end_reason: components["schemas"]["EndReason"] | (null);
        };
        SessionList: {
            sessions: components["schemas"]["Session"][];
            /**
             * @description With `limit`, pass this as `cursor` for the next page; null on the last page, and always null without `limit`. Always sent; required since 1.6.0.
             * @example null
             */
            next_cursor: string | null;
        };
        /**
         * @description Stable machine-readable error code:
         *     `BAD_REQUEST` 400 (or 431; refused by the HTTP parser before routing), `UNAUTHORIZED` 401,
         *     `QUOTA_EXCEEDED` 403, `RESOURCE_NOT_FOUND` 404, `METHOD_NOT_ALLOWED` 405 (with `Allow`),
         *     `CONFLICT` 409, `PAYLOAD_TOO_LARGE` 413, `UNSUPPORTED_MEDIA_TYPE` 415,
         *     `CAPACITY_UNAVAILABLE` 420, `INVALID_REQUEST` 422, `TOO_MANY_REQUESTS` 429, `INTERNAL_ERROR` 500,
         *     `SERVICE_UNAVAILABLE` 503 (with `Retry-After`).
         * @enum {string}
         */
        ErrorCode: "UNAUTHORIZED" | "QUOTA_EXCEEDED" | "RESOURCE_NOT_FOUND" | "CONFLICT" | "PAYLOAD_TOO_LARGE" | "UNSUPPORTED_MEDIA_TYPE" | "CAPACITY_UNAVAILABLE" | "INVALID_REQUEST" | "TOO_MANY_REQUESTS" | "INTERNAL_ERROR" | "METHOD_NOT_ALLOWED" | "BAD_REQUEST" | "SERVICE_UNAVAILABLE";
        Violation: {
            /**
             * @description JSON-pointer-like location of the offending value (`body.expires_after`, `query.limit`).
             * @example body.expires_after
             */
            field: string;
            /** @example must be a duration such as 30m, 2h or 1h30m */
            description: string;
        };
        /** @description The body of every error response. */
        Error: {
            /**
             * @description The HTTP status code, repeated.
             * @example 401
             */
            statusCode: number;
            code: components["schemas"]["ErrorCode"];
            /**
             * @description A human-readable summary. Generic on 500.
             * @example Authentication failed
             */
            message: string;
            /**
             * @description What exactly went wrong; present on every error (as in Gameye's error body): which token
             *     check failed on 401, which resource is unknown on 404 (location, image, tag, session,
             *     token, subscription, route), full, locked or rate_limited on 420, the violations in one
             *     line on 422 (the first 16, then `and N more`), and nothing internal on 500. What it and
             *     `violations` echo of the request is bounded (since 1.4.0): a name or key longer than 64
             *     characters is cut to its first 64 followed by `… (N more characters)`. Required since 1.6.0
             *     (always sent; the spec's examples of 422 and 500, what the Prism mock answers, lacked it).
             * @example token lacks scope session:start
             */
            details: string;
            /**
             * @description The request path.
             * @example /session
             */
            path: string;
            /**
             * @description The request's W3C trace id (32 hex digits; the caller's, when it sent `traceparent`),
             *     also on every log line of the request and, when traces are exported, the trace's id.
             * @example 4bf92f3577b34da6a3ce929d0e0e4736
             */
            identifier: string;
            /**
             * Format: date-time
             * @description When the error happened (ISO 8601, UTC).
             * @example 2026-11-22T10:15:30.000Z
             */
            timestamp: string;
            /** @description On 422, one entry per invalid field, the first 16 of them (`details` says how many more). */
            violations?: components["schemas"]["Violation"][];
        };
        /**
         * a duration such as 30m, 2h or 1h30m
         * @description A duration: whole hours and/or minutes, `<n>h`, `<n>m` or `<n>h<n>m` (each number a positive
         *     integer without leading zeros), for example `30m`, `2h`, `1h30m`. Anything else is 422.
         * @example 1h30m
         */
        Duration: string;
        SessionStartRequest: {
            /**
             * @description Chosen by the caller and unique within the account (a UUID is recommended); reusing one
             *     of the account's own ids is 409, which makes a retried start safe. Ids are per account:
             *     another account's session with the same id is neither a conflict nor visible. Omitted, the service generates a UUID and returns it
             *     as the session's `id` (as Gameye does).
             * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
             */
            id?: string;
            /** @example local-a */
            location: string;
            /** @example echo */
            image: string;
            /**
             * @description The image tag; default is the image's default tag. An unknown tag is 404.
             * @example latest
             */
            version?: string;
            /**
             * @description Environment for the game server. Never echoed back. Names are plain: at most 128
             *     characters, letters, digits, `_`, `-` and `.`, not starting with a digit, `-` or `.`
             *     (Gameye-style `my-secret` is fine).
             *     Refused with 422, each name listed, are names that change what runs or how in any
             *     interpreter (`PATH`, `ENV`, `BASH_ENV`, `BASH_FUNC_*`, `LD_*`, `GLIBC_TUNABLES`, `MALLOC_*`,
             *     `GCONV_PATH`, `NODE_*`, `PYTHON*`, `PERL5*`, `RUBYOPT`, `JAVA_TOOL_OPTIONS`,
             *     `_JAVA_OPTIONS`, `OPENSSL_*`, `DOTNET_*`, and the like) and the session's own `SESSION_*`,
             *     `PORT_*` and `PUBLIC_PORT_*`. An image may declare an allowlist instead; then exactly its
             *     names are accepted (never the session's own). No name or value may hold a NUL character
             *     (U+0000), nor may `args` or `labels`: a program's environment and arguments end at one (422).
             */
            env?: components["schemas"]["StringMap"];
            /**
             * @description Arguments appended to the image's command.
             * @example [
             *       "--max-players",
             *       "8"
             *     ]
             */
            args?: string[];
            /**
             * @description Free-form labels to filter sessions by. Keys at most 128 characters (422, one violation
             *     per key, `body.labels.<key>`), and the labels in all at most 98,304 bytes as JSON text
             *     (UTF-8; more than 64 plain entries of 128 + 1,024 characters take), else 422 with one
             *     violation, `body.labels` (since 1.4.0): every event, webhook and game-server SDK answer
             *     carries them.
             */
            labels?: components["schemas"]["StringMap"];
            /**
             * @description Restart the game server when it crashes (never after a stop).
             * @default false
             */
            restart?: boolean;
            /** @description Stop the session when this much time has passed since it was created. */
            ttl?: components["schemas"]["Duration"];
        };
        PlayersRequest: {
            /** @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44 */
            session: string;
            /**
             * @example [
             *       "player-1",
             *       "player-2"
             *     ]
             */
            players: string[];
        };
        PlayerCount: {
            /** @example 1 */
            count: number;
            /**
             * @example [
             *       "player-1"
             *     ]
             */
            players: string[];
        };
        PlayersLeaveRequest: {
            /**
             * @description The session the players leave; omitted, each player leaves the account's live session it is in.
             * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
             */
            session?: string;
            /**
             * @example [
             *       "player-2"
             *     ]
             */
            players: string[];
        };
        Node: {
            /** @example local-a-1 */
            id: string;
            /** @example 127.0.0.1 */
            host: string;
            /** @example false */
            locked: boolean;
            /** @example 32 */
            capacity: number;
            /**
             * @description Slots held, by live sessions and by warm servers (a warm pool's, not yet claimed; since 1.5.0, before which warm servers were not counted).
             * @example 3
             */
            used: number;
            /**
             * @description `draining`: set to drain, it takes no new sessions while its live ones run to their end; `drained`: set to drain and none is left (it can be taken down); `none`: not draining.
             * @example none
             * @enum {string}
             */
            drain: "none" | "draining" | "drained";
            /**
             * @description As its runtime sees it (a heartbeat per Docker node; nodes of other runtimes are always `up`): `unreachable`: it does not answer (its sessions are `server_unreachable`, it takes no new ones); `lost`: silent past the node-lost timeout (its sessions ended `node_lost`).
             * @example up
             * @enum {string}
             */
            health: "up" | "unreachable" | "lost";
            /**
             * Format: int64
             * @description When it last answered its heartbeat (unix ms); null where there is none yet or no heartbeat.
             * @example 1767225600000
             */
            lastSeen?: number | null;
        };
        Location: {
            /** @example local-a */
            id: string;
            /**
             * @description `locked`: every node is in maintenance; `full`: no free slot on an unlocked node.
             * @example available
             * @enum {string}
             */
            status: "available" | "full" | "locked";
            /**
             * @example [
             *       "127.0.0.1"
             *     ]
             */
            ips: string[];
            capacity: {
                /** @example 64 */
                total: number;
                /**
                 * @description Slots held, by live sessions and by warm servers (since 1.5.0).
                 * @example 3
                 */
                used: number;
                /**
                 * @description Free slots on unlocked nodes; a warm server's slot is not free (since 1.5.0).
                 * @example 61
                 */
                free: number;
            };
            nodes: components["schemas"]["Node"][];
        };
        LocationList: {
            locations: components["schemas"]["Location"][];
        };
        AvailableLocationList: {
            /** @description Locations where the image can start now (accessible, unlocked, with a free slot). */
            locations: {
                /** @example local-a */
                id: string;
                /**
                 * @example [
                 *       "127.0.0.1"
                 *     ]
                 */
                ips: string[];
            }[];
        };
        TagExists: {
            /**
             * @description True when the tag can be started in the location.
             * @example true
             */
            exists: boolean;
        };
        Subscription: {
            /** @example sub_8d2k1q */
            id: string;
            /**
             * @description The receiver, normalized (since 1.6.0; see `POST /subscription`).
             * @example https://backend.example.com/hooks/sessions
             */
            url: string;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.000Z
             */
            created: string;
        };
        SubscriptionList: {
            subscriptions: components["schemas"]["Subscription"][];
        };
        SubscriptionCreateRequest: {
            /**
             * an http:// or https:// URL
             * Format: uri
             * @description Receives a signed POST per session state change. The scheme in any case (since 1.8.0; `HTTPS://` was 422).
             * @example https://backend.example.com/hooks/sessions
             */
            url: string;
        };
        /**
         * @description A new subscription. `secret` is shown only here. Each delivery carries
         *     `Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the secret>`;
         *     reject deliveries whose `t` is more than five minutes old.
         */
        SubscriptionCreated: components["schemas"]["Subscription"] & {
            /** @example whsec_Jx7Q2mK9pL4vN8rT1yB6cW3e */
            secret: string;
        };
        /**
         * @description One session state change, as sent on `GET /events` (`data` of a `session` or `snapshot` event)
         *     and as the body of a webhook delivery.
         */
        SessionEvent: {
            /**
             * @description Increasing event id (the SSE `id`). On `snapshot` events, the id of the newest event when the stream started, the same on each (resuming with it as `Last-Event-ID` gets every change after the snapshot); it said empty there before 1.7.1, which the service never sent.
             * @example 42
             */
            id: string;
            status: components["schemas"]["SessionStatus"];
            /** @description The state before; absent when the session was just created, and on snapshots. */
            previous?: components["schemas"]["SessionStatus"];
            /**
             * Format: int64
             * @description When the change happened, unix milliseconds.
             * @example 1795000000500
             */
            at: number;
            session: components["schemas"]["Session"];
        };
        Delivery: {
            /** @example dlv_19 */
            id: string;
            /** @example 42 */
            event_id: string;
            /** @example 1 */
            attempt: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:31.000Z
             */
            at: string;
            /** @example true */
            ok: boolean;
            /** @example 200 */
            status_code: number | null;
            /** @example null */
            error: string | null;
        };
        DeliveryList: {
            /** @description Newest first, at most 100. */
            deliveries: components["schemas"]["Delivery"][];
        };
        /**
         * @description A permission a token carries:
         *     `session:start` start sessions and manage their players; `session:read` list and read sessions
         *     and stream events; `session:stop` stop sessions; `logs:read` read logs; `artifact:read`
         *     download artifacts; `regions:read` list locations; `events:write` manage webhook
         *     subscriptions; `token:write` manage tokens; `webhook:repohost` notify image pushes;
         *     `metrics:read` read the service's metrics (`GET /metrics`; operator accounts only, as the
         *     metrics are the whole service's).
         * @example session:read
         * @enum {string}
         */
        Scope: "session:start" | "session:read" | "session:stop" | "logs:read" | "artifact:read" | "regions:read" | "events:write" | "token:write" | "webhook:repohost" | "metrics:read";
        /**
         * @description `active`, `disabled` (by an operator, may be enabled again) or `expired`.
         * @example active
         * @enum {string}
         */
        TokenStatus: "active" | "disabled" | "expired";
        /** @description A token as listed; the value is masked. */
        Token: {
            /** @example tok_3kq9x1m2p8 */
            id: string;
            /** @example matchmaker */
            name: string;
            scopes: components["schemas"]["Scope"][];
            /**
             * @description The value, masked (prefix and last four characters).
             * @example gsh_…6Vr2Q
             */
            token: string;
            status: components["schemas"]["TokenStatus"];
            /**
             * Format: date-time
             * @example 2026-11-22T11:45:30.000Z
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.000Z
             */
            created: string;
            /**
             * Format: date-time
             * @description When the token last authenticated a request; null if never.
             * @example 2026-11-22T10:20:00.000Z
             */
            last_used: string | null;
        };
        TokenList: {
            /** @description The account's tokens that are not revoked, newest first. */
            tokens: components["schemas"]["Token"][];
        };
        TokenCreateRequest: {
            /**
             * @description A label for people; not unique.
             * @example matchmaker
             */
            name: string;
            /**
             * @description Scopes for the new token. A token may grant only scopes it holds itself, except that a
             *     token holding `token:write` may also grant `webhook:repohost`.
             */
            scopes: components["schemas"]["Scope"][];
            /**
             * @description Lifetime from now. Omitted: never expires. A token never outlives the token that issued
             *     it: `expires_at` is capped at the issuer's.
             */
            expires_after?: components["schemas"]["Duration"];
        };
        /** @description A new token. `token` holds the full secret and is shown only here. */
        TokenCreated: {
            /** @example tok_3kq9x1m2p8 */
            id: string;
            /** @example matchmaker */
            name: string;
            scopes: components["schemas"]["Scope"][];
            /**
             * @description The secret bearer value. Store it now; it is never returned again by the API.
             * @example gsh_Yk3vR8q2Lw0pZtN5cJ7bXe1uHfA9sDgM4nKiOy6Vr2Q
             */
            token: string;
            /**
             * Format: date-time
             * @description When the token stops working; null for never.
             * @example 2026-11-22T11:45:30.000Z
             */
            expires_at: string | null;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.000Z
             */
            created: string;
        };
        /** @description Runtime quota in minutes; run time is charged to the second from launch (the session's `created`) to the end, so a game server that never becomes running is charged too. */
        Quota: {
            /** @example 6000 */
            total: number;
            /**
             * @description Minutes used, with fractions for seconds.
             * @example 12.5
             */
            used: number;
            /** @example 5987.5 */
            remaining: number;
        };
        Account: {
            /** @example acc_operator */
            id: string;
            /** @example Operator */
            name: string;
            quota: components["schemas"]["Quota"];
            /**
             * @description The most live sessions (not yet `exited` or `dead`) the account may have at once; a start
             *     past it answers 420 with `details` saying so. null: no cap beyond the locations' capacity.
             *     Always sent; required since 1.8.0.
             * @example 10
             */
            max_sessions: number | null;
        };
        /** @description An image registry's push notification (Docker Hub's payload shape; other fields are ignored). */
        RegistryPush: {
            push_data: {
                /** @example v1.4.2 */
                tag: string;
            } & {
                [key: string]: unknown;
            };
            repository: {
                /**
                 * @description `namespace/name`; the image is the last path segment.
                 * @example studio/echo
                 */
                repo_name: string;
            } & {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        ImageTag: {
            /** @example echo */
            image: string;
            /** @example v1.4.2 */
            tag: string;
        };
        /** @description The process answers. */
        Liveness: {
            /** @enum {string} */
            status: "alive";
        };
        /** @description Whether the service can take traffic, and what is failing when it cannot. */
        Readiness: {
            /** @enum {string} */
            status: "ready" | "degraded";
            /** @description What is failing now; empty when ready. */
            problems: {
                /** @description The failing part: `store` (requests), `runtime-events`, `token-last-used`, `event-pruning`, `quota`, `webhooks`, `ttl`, `recovery`; or `shutdown` (since 1.6.0): the instance is stopping and still serves requests for its `SHUTDOWN_DELAY_SECONDS`, so a proxy takes it out of rotation before its listener closes. */
                component: string;
                /**
                 * Format: date-time
                 * @description When it started failing.
                 */
                since: string;
                /** @description The identifier of its first failure's log line. */
                identifier: string;
            }[];
        };
        /** @description The signed-in operator. Send `csrf_token` as `X-CSRF-Token` on every call (reads too, since 1.7.0). */
        AdminSession: {
            /** @example admin@example.com */
            email: string;
            /** @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU */
            csrf_token: string;
            /**
             * Format: date-time
             * @example 2026-11-22T22:15:30.000Z
             */
            expires_at: string;
        };
        AdminSignIn: {
            /** @example admin@example.com */
            email: string;
            /** @example correct horse battery staple */
            password: string;
        };
        /** @description An account, as operators see it. */
        User: {
            /** @example acc_5f2c9e1b7a3d */
            id: string;
            /** @example Example Studio */
            name: string;
            /** @example ops@studio.example */
            email: string | null;
            /**
             * @description The bootstrap operator's account.
             * @example false
             */
            operator: boolean;
            /**
             * @description A disabled account's tokens all answer 401.
             * @example false
             */
            disabled: boolean;
            /**
             * Format: date-time
             * @example 2026-11-22T10:15:30.000Z
             */
            created: string;
            quota: components["schemas"]["Quota"];
            /**
             * @description The most live sessions (not yet `exited` or `dead`) the account may have at once; a start
             *     past it answers 420 with `details` saying so. null: no cap beyond the locations' capacity.
             * @example 10
             */
            max_sessions?: number | null;
            /**
             * @description Private locations the account may use, besides every public one.
             * @example [
             *       "local-b"
             *     ]
             */
            locations: string[];
            /**
             * @description Private images the account may start, besides every public one.
             * @example []
             */
            images: string[];
        };
        UserList: {
            users: components["schemas"]["User"][];
            /**
             * @description Pass as `cursor` for the next page; null on the last page.
             * @example null
             */
            next_cursor: string | null;
        };
        UserCreateRequest: {
            /** @example Example Studio */
            name: string;
            /**
             * @description Unique across accounts.
             * @example ops@studio.example
             */
            email: string;
            /** @example 600 */
            quota_minutes: number;
            /**
             * @description Private locations to allow (ids from the fleet file).
             * @example [
             *       "local-b"
             *     ]
             */
            locations?: string[];
            /**
             * @description Private images to allow (names from the fleet file).
             * @example []
             */
            images?: string[];
        };
        UserUpdateRequest: {
            /** @example Example Studio */
            name?: string;
            /** @example 1200 */
            quota_minutes?: number;
            /**
             * @description Set the most live sessions (not yet `exited` or `dead`) the account may have at once; a start
             *     past it answers 420 with `details` saying so. null removes the cap.
             * @example 10
             */
            max_sessions?: number | null;
            /**
             * @description Disable (or enable again) the account and, with it, every one of its tokens.
             * @example false
             */
            disabled?: boolean;
            /**
             * @example [
             *       "local-b"
             *     ]
             */
            locations?: string[];
            /** @example [] */
            images?: string[];
        };
        TokenUpdateRequest: {
            /**
             * @description A disabled token answers 401 until it is enabled again.
             * @example true
             */
            disabled: boolean;
        };
        TokenValue: {
            /** @example tok_3kq9x1m2p8 */
            id: string;
            /**
             * @description The full value. Every reveal is written to the audit log.
             * @example gsh_Yk3vR8q2Lw0pZtN5cJ7bXe1uHfA9sDgM4nKiOy6Vr2Q
             */
            token: string;
        };
        AuditEntry: {
            /** @example 7 */
            id: number;
            /**
             * Format: date-time
             * @example 2026-11-22T10:16:02.000Z
             */
            at: string;
            /**
             * @description The operator's email, or `API token <id>` for a token change made through the public API.
             * @example admin@example.com
             */
            actor: string;
            /**
             * @example token_revealed
             * @enum {string}
             */
            action: "user_created" | "user_updated" | "user_disabled" | "user_enabled" | "token_created" | "token_revealed" | "token_disabled" | "token_enabled" | "token_deleted";
            /** @example tok_3kq9x1m2p8 */
            token_id: string | null;
            /** @example matchmaker */
            details: string;
        };
        AuditLog: {
            /** @description Newest first. */
            entries: components["schemas"]["AuditEntry"][];
        };
        NodeUpdateRequest: {
            /**
             * @description A locked node takes no new sessions (maintenance); running ones carry on.
             * @example true
             */
            locked?: boolean;
            /**
             * @description A draining node takes no new sessions and its live ones run to their end; its `drain` then says `drained`. Kept in the database until set to false.
             * @example true
             */
            drain?: boolean;
        };
        /** @description Sessions of every account (the admin panel), each with the account that owns it. */
        AccountSessionList: {
            sessions: (components["schemas"]["Session"] & {
                /**
                 * @description The id of the account that owns the session.
                 * @example acc_5f2c9e1b7a3d
                 */
                account: string;
            })[];
            /**
             * @description With `limit`, pass this as `cursor` for the next page; null on the last page.
             * @example null
             */
            next_cursor?: string | null;
        };
        ImageCatalog: {
            images: {
                /** @example echo */
                name: string;
                /** @example latest */
                default_tag: string;
                /** @example true */
                public: boolean;
                /**
                 * @description Accounts allowed a private image (fleet file and grants).
                 * @example []
                 */
                accounts: string[];
                tags: {
                    /** @example v1.4.2 */
                    name: string;
                    /**
                     * @example registry
                     * @enum {string}
                     */
                    source: "fleet" | "registry";
                    /**
                     * @description The account a registry push registered the tag for.
                     * @example acc_5f2c9e1b7a3d
                     */
                    account: string | null;
                    /**
                     * Format: date-time
                     * @example 2026-11-22T10:15:30.000Z
                     */
                    registered: string | null;
                }[];
            }[];
        };
        OverviewSample: {
            /**
             * Format: int64
             * @description When the sample was taken (unix ms).
             * @example 1795000000000
             */
            at: number;
            /** @description Live sessions per location and state (only the pairs with sessions). */
            sessions: {
                /** @example local-a */
                location: string;
                state: components["schemas"]["SessionStatus"];
                /** @example 9 */
                count: number;
            }[];
            /**
             * @description Answers to `POST /session` since the previous sample, whatever their status.
             * @example 12
             */
            starts: number;
            /**
             * @description Of those, the `420` answers.
             * @example 3
             */
            capacityUnavailable: number;
            /**
             * @description Start-to-running percentiles, in seconds, of the sessions that reached `running` since
             *     the previous sample (estimated from the histogram's buckets, as Prometheus'
             *     `histogram_quantile` does); null when none did.
             */
            startToRunning: {
                /** @example 9 */
                count: number;
                /** @example 0.08 */
                p50: number;
                /** @example 0.21 */
                p95: number;
                /** @example 0.24 */
                p99: number;
            } | null;
        };
        Overview: {
            /**
             * @description Seconds between two samples.
             * @example 10
             */
            intervalSeconds: number;
            /** @description At most one hour of samples, oldest first. */
            samples: components["schemas"]["OverviewSample"][];
        };
        /** @description A warm pool of one (location, image, tag) and how full it is now. */
        WarmPool: {
            /** @example local-a */
            location: string;
            /** @example echo */
            image: string;
            /** @example latest */
            tag: string;
            /**
             * @description How many warm game servers the pool keeps.
             * @example 4
             */
            warm: number;
            /**
             * @description Where `warm` comes from; the panel's size overrides the fleet file's.
             * @example panel
             * @enum {string}
             */
            source: "fleet" | "panel";
            /**
             * @description Warm game servers ready to be claimed.
             * @example 3
             */
            ready: number;
            /**
             * @description Warm game servers launched and not ready yet.
             * @example 1
             */
            starting: number;
            env: components["schemas"]["StringMap"];
            /**
             * @description The arguments every warm server of the pool runs with; a start asking for other `env` or `args` is served cold.
             * @example [
             *       "--fast"
             *     ]
             */
            args: string[];
        };
        WarmPoolList: {
            pools: components["schemas"]["WarmPool"][];
        };
        WarmPoolSizeRequest: {
            /** @example local-a */
            location: string;
            /** @example echo */
            image: string;
            /** @example latest */
            tag: string;
            /**
             * @description How many warm game servers to keep (0 empties the pool).
             * @example 4
             */
            warm: number;
        };
    };
    responses: {
        /** @description Authentication failed: the token is missing, malformed, unknown, revoked, disabled, expired, or lacks the scope the operation needs (details says which). */
        Unauthorized: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                "WWW-Authenticate": components["headers"]["WwwAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request is malformed: invalid JSON, a body that is not valid UTF-8 (since 1.6.0; it was kept with U+FFFD in place of the bytes), a missing or unknown field, a wrong type or format, a body nesting deeper than 32 levels, a string or key holding a NUL character (U+0000, JSON `\u0000`, URL `%00`) anywhere in the body or query (violations lists each). */
        InvalidRequest: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too many attempts, or too many at once: wait Retry-After seconds (details says why). */
        TooManyRequests: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                "Retry-After": components["headers"]["RetryAfterThrottle"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An unexpected error; the body never says more. Quote identifier to support. */
        InternalError: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Busy, not broken: the store could not take the request in time (every database connection in use for the whole wait, or a row it needs locked by another transaction for seconds), or its disk is full (since 1.5.0, 500 before; `/readyz` says degraded until there is space again), or its database could not be reached before anything of the request was sent to it, as while PostgreSQL restarts or fails over (since 1.5.0, 500 before; `/readyz` says degraded until it answers again). Nothing of the request was done; retry after Retry-After seconds. */
        ServiceUnavailable: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                "Retry-After": components["headers"]["RetryAfterBusy"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The account's runtime quota is exhausted, or (details says which) its retained sessions' labels, args and players would exceed its storage budget. */
        QuotaExceeded: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The resource is unknown or not accessible to the account (details says which). */
        NotFound: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request conflicts with the resource's state (a session id the account already used, a session already ended or still live). */
        Conflict: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is larger than the service accepts: 8 KiB for sign-in, tokens, users, nodes, subscriptions and registry pushes; 1 MiB for the rest. */
        PayloadTooLarge: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description The request body is not application/json, or is compressed: bodies are read as sent, so a `Content-Encoding` other than `identity` is 415 too (since 1.5.0); so is a `charset` other than UTF-8 (since 1.6.0; JSON is UTF-8, RFC 8259, and such a body was read as UTF-8 with U+FFFD in place of its other bytes), or US-ASCII, its subset (taken since 1.8.0; a body declared so with other bytes is 422). */
        UnsupportedMediaType: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description No capacity: every node is full, every node is locked for maintenance, the account's start rate is exceeded, or the account already has as many live sessions as its max_sessions allows (details says full, locked, rate_limited, or account_session_limit with the cap). Retry after Retry-After seconds, then try a secondary location; for the account's cap, stop a session first. */
        CapacityUnavailable: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not signed in to the admin panel (the `gsh_admin` cookie missing, unknown or expired), a call without the session's CSRF token (reads too, since 1.7.0), or (sign-in) a wrong email or password; details says which. No `WWW-Authenticate`: no HTTP scheme names a cookie sign-in (bearer operations' 401 carries one since 1.6.0). */
        AdminUnauthorized: {
            headers: {
                "API-Version": components["headers"]["ApiVersion"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /**
         * @description Include ended sessions (`exited`, `dead`); default only live ones.
         * @example false
         */
        SessionFilter_all: boolean;
        /**
         * @description Only sessions whose `location` equals this.
         * @example local-a
         */
        SessionFilter_location: string;
        /**
         * @description Only sessions whose `image` equals this.
         * @example echo
         */
        SessionFilter_image: string;
        /**
         * @description Only sessions whose `tag` equals this.
         * @example latest
         */
        SessionFilter_tag: string;
        /**
         * @description Only sessions whose `host` equals this.
         * @example 127.0.0.1
         */
        SessionFilter_host: string;
        /**
         * @description Only sessions in this state.
         * @example running
         */
        SessionFilter_status: components["schemas"]["SessionStatus"];
        /**
         * @description `filter[<label>]=<value>`: only sessions whose labels all match.
         * @example {
         *       "mode": "ranked"
         *     }
         */
        SessionFilter_filter: {
            [key: string]: string;
        };
        /**
         * @description `filterNot[<label>]=<value>`: leave out sessions with any of these labels.
         * @example {
         *       "mode": "casual"
         *     }
         */
        SessionFilter_filterNot: {
            [key: string]: string;
        };
        /**
         * @description `playerCount[lt]=<n>` and/or `playerCount[gt]=<n>`: joined player count bounds (exclusive).
         * @example {
         *       "lt": 8
         *     }
         */
        SessionFilter_playerCount: {
            lt?: number;
            gt?: number;
        };
        /**
         * @description Page size. Without it every matching item is returned.
         * @example 100
         */
        Limit: number;
        /**
         * @description The `next_cursor` of the previous page.
         * @example WzE3OTUwMDAwMDAwMDAsIjBmOGU1YjBjLTZhMWQtNGE1ZS05ZDYxLTJmM2MxYjdhOWU0NCJd
         */
        Cursor: string;
        /**
         * @description The session id the caller chose at start (unique within the account).
         * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
         */
        SessionId: string;
        /**
         * @description An image name from the catalog.
         * @example echo
         */
        Image: string;
        /**
         * @description Resume after this event id; events still in the replay window are sent first.
         * @example 41
         */
        LastEventId: string;
        /** @example sub_8d2k1q */
        SubscriptionId: string;
        /**
         * @description The token's id (not its value).
         * @example tok_3kq9x1m2p8
         */
        TokenId: string;
        /**
         * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
         *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
         *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
         *     the token, kept by the panel in its origin's storage, does not go there.
         * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
         */
        CsrfToken: string;
        /**
         * @description The account id.
         * @example acc_5f2c9e1b7a3d
         */
        UserId: string;
        /**
         * @description The token id.
         * @example tok_3kq9x1m2p8
         */
        UserTokenId: string;
        /**
         * @description The node id, as in the fleet file.
         * @example local-a-1
         */
        NodeId: string;
        /**
         * @description The account that owns the session. Session ids are unique per account only: without it, an id
         *     that several accounts use is 409 (details list the accounts).
         * @example acc_5f2c9e1b7a3d
         */
        SessionAccount: string;
    };
    requestBodies: never;
    headers: {
        /** @description The semver version of the API description this server implements. */
        ApiVersion: string;
        /**
         * @description The challenge every 401 must carry (RFC 9110 §11.6.1): `Bearer realm="session-host"` on the
         *     operations a bearer token authenticates (since 1.6.0; some HTTP clients treat a 401 without
         *     one as a protocol error). The admin panel's operations (cookie, `adminSession`) answer
         *     `AdminUnauthorized`, without it.
         */
        WwwAuthenticate: string;
        /** @description Seconds to wait before the next attempt is admitted. */
        RetryAfterThrottle: number;
        /** @description Seconds to wait before retrying the same request. */
        RetryAfterBusy: number;
        /** @description Seconds to wait before retrying (2 to 5 s recommended, then try a secondary location). */
        RetryAfter: number;
    };
    pathItems: never;
}
export type SessionStatus = components['schemas']['SessionStatus'];
export type PortMapping = components['schemas']['PortMapping'];
export type StringMap = components['schemas']['StringMap'];
export type Players = components['schemas']['Players'];
export type EndReason = components['schemas']['EndReason'];
export type Session = components['schemas']['Session'];
export type SessionList = components['schemas']['SessionList'];
export type ErrorCode = components['schemas']['ErrorCode'];
export type Violation = components['schemas']['Violation'];
export type Error = components['schemas']['Error'];
export type Duration = components['schemas']['Duration'];
export type SessionStartRequest = components['schemas']['SessionStartRequest'];
export type PlayersRequest = components['schemas']['PlayersRequest'];
export type PlayerCount = components['schemas']['PlayerCount'];
export type PlayersLeaveRequest = components['schemas']['PlayersLeaveRequest'];
export type Node = components['schemas']['Node'];
export type Location = components['schemas']['Location'];
export type LocationList = components['schemas']['LocationList'];
export type AvailableLocationList = components['schemas']['AvailableLocationList'];
export type TagExists = components['schemas']['TagExists'];
export type Subscription = components['schemas']['Subscription'];
export type SubscriptionList = components['schemas']['SubscriptionList'];
export type SubscriptionCreateRequest = components['schemas']['SubscriptionCreateRequest'];
export type SubscriptionCreated = components['schemas']['SubscriptionCreated'];
export type SessionEvent = components['schemas']['SessionEvent'];
export type Delivery = components['schemas']['Delivery'];
export type DeliveryList = components['schemas']['DeliveryList'];
export type Scope = components['schemas']['Scope'];
export type TokenStatus = components['schemas']['TokenStatus'];
export type Token = components['schemas']['Token'];
export type TokenList = components['schemas']['TokenList'];
export type TokenCreateRequest = components['schemas']['TokenCreateRequest'];
export type TokenCreated = components['schemas']['TokenCreated'];
export type Quota = components['schemas']['Quota'];
export type Account = components['schemas']['Account'];
export type RegistryPush = components['schemas']['RegistryPush'];
export type ImageTag = components['schemas']['ImageTag'];
export type Liveness = components['schemas']['Liveness'];
export type Readiness = components['schemas']['Readiness'];
export type AdminSession = components['schemas']['AdminSession'];
export type AdminSignIn = components['schemas']['AdminSignIn'];
export type User = components['schemas']['User'];
export type UserList = components['schemas']['UserList'];
export type UserCreateRequest = components['schemas']['UserCreateRequest'];
export type UserUpdateRequest = components['schemas']['UserUpdateRequest'];
export type TokenUpdateRequest = components['schemas']['TokenUpdateRequest'];
export type TokenValue = components['schemas']['TokenValue'];
export type AuditEntry = components['schemas']['AuditEntry'];
export type AuditLog = components['schemas']['AuditLog'];
export type NodeUpdateRequest = components['schemas']['NodeUpdateRequest'];
export type AccountSessionList = components['schemas']['AccountSessionList'];
export type ImageCatalog = components['schemas']['ImageCatalog'];
export type OverviewSample = components['schemas']['OverviewSample'];
export type Overview = components['schemas']['Overview'];
export type WarmPool = components['schemas']['WarmPool'];
export type WarmPoolList = components['schemas']['WarmPoolList'];
export type WarmPoolSizeRequest = components['schemas']['WarmPoolSizeRequest'];
export type ResponseUnauthorized = components['responses']['Unauthorized'];
export type ResponseInvalidRequest = components['responses']['InvalidRequest'];
export type ResponseTooManyRequests = components['responses']['TooManyRequests'];
export type ResponseInternalError = components['responses']['InternalError'];
export type ResponseServiceUnavailable = components['responses']['ServiceUnavailable'];
export type ResponseQuotaExceeded = components['responses']['QuotaExceeded'];
export type ResponseNotFound = components['responses']['NotFound'];
export type ResponseConflict = components['responses']['Conflict'];
export type ResponsePayloadTooLarge = components['responses']['PayloadTooLarge'];
export type ResponseUnsupportedMediaType = components['responses']['UnsupportedMediaType'];
export type ResponseCapacityUnavailable = components['responses']['CapacityUnavailable'];
export type ResponseAdminUnauthorized = components['responses']['AdminUnauthorized'];
export type ParameterSessionFilterAll = components['parameters']['SessionFilter_all'];
export type ParameterSessionFilterLocation = components['parameters']['SessionFilter_location'];
export type ParameterSessionFilterImage = components['parameters']['SessionFilter_image'];
export type ParameterSessionFilterTag = components['parameters']['SessionFilter_tag'];
export type ParameterSessionFilterHost = components['parameters']['SessionFilter_host'];
export type ParameterSessionFilterStatus = components['parameters']['SessionFilter_status'];
export type ParameterSessionFilterFilter = components['parameters']['SessionFilter_filter'];
export type ParameterSessionFilterFilterNot = components['parameters']['SessionFilter_filterNot'];
export type ParameterSessionFilterPlayerCount = components['parameters']['SessionFilter_playerCount'];
export type ParameterLimit = components['parameters']['Limit'];
export type ParameterCursor = components['parameters']['Cursor'];
export type ParameterSessionId = components['parameters']['SessionId'];
export type ParameterImage = components['parameters']['Image'];
export type ParameterLastEventId = components['parameters']['LastEventId'];
export type ParameterSubscriptionId = components['parameters']['SubscriptionId'];
export type ParameterTokenId = components['parameters']['TokenId'];
export type ParameterCsrfToken = components['parameters']['CsrfToken'];
export type ParameterUserId = components['parameters']['UserId'];
export type ParameterUserTokenId = components['parameters']['UserTokenId'];
export type ParameterNodeId = components['parameters']['NodeId'];
export type ParameterSessionAccount = components['parameters']['SessionAccount'];
export type HeaderApiVersion = components['headers']['ApiVersion'];
export type HeaderWwwAuthenticate = components['headers']['WwwAuthenticate'];
export type HeaderRetryAfterThrottle = components['headers']['RetryAfterThrottle'];
export type HeaderRetryAfterBusy = components['headers']['RetryAfterBusy'];
export type HeaderRetryAfter = components['headers']['RetryAfter'];
export type $defs = Record<string, never>;
export interface operations {
    listSessions: {
        parameters: {
            query?: {
                /**
                 * @description Include ended sessions (`exited`, `dead`); default only live ones.
                 * @example false
                 */
                all?: components["parameters"]["SessionFilter_all"];
                /**
                 * @description Only sessions whose `location` equals this.
                 * @example local-a
                 */
                location?: components["parameters"]["SessionFilter_location"];
                /**
                 * @description Only sessions whose `image` equals this.
                 * @example echo
                 */
                image?: components["parameters"]["SessionFilter_image"];
                /**
                 * @description Only sessions whose `tag` equals this.
                 * @example latest
                 */
                tag?: components["parameters"]["SessionFilter_tag"];
                /**
                 * @description Only sessions whose `host` equals this.
                 * @example 127.0.0.1
                 */
                host?: components["parameters"]["SessionFilter_host"];
                /**
                 * @description Only sessions in this state.
                 * @example running
                 */
                status?: components["parameters"]["SessionFilter_status"];
                /**
                 * @description `filter[<label>]=<value>`: only sessions whose labels all match.
                 * @example {
                 *       "mode": "ranked"
                 *     }
                 */
                filter?: components["parameters"]["SessionFilter_filter"];
                /**
                 * @description `filterNot[<label>]=<value>`: leave out sessions with any of these labels.
                 * @example {
                 *       "mode": "casual"
                 *     }
                 */
                filterNot?: components["parameters"]["SessionFilter_filterNot"];
                /**
                 * @description `playerCount[lt]=<n>` and/or `playerCount[gt]=<n>`: joined player count bounds (exclusive).
                 * @example {
                 *       "lt": 8
                 *     }
                 */
                playerCount?: components["parameters"]["SessionFilter_playerCount"];
                /**
                 * @description Page size. Without it every matching item is returned.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `next_cursor` of the previous page.
                 * @example WzE3OTUwMDAwMDAwMDAsIjBmOGU1YjBjLTZhMWQtNGE1ZS05ZDYxLTJmM2MxYjdhOWU0NCJd
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The matching sessions. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["InvalidRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    startSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SessionStartRequest"];
            };
        };
        responses: {
            /** @description Created; connect to `host` on the `ports`' host ports once it is `running`. */
            201: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["QuotaExceeded"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            420: components["responses"]["CapacityUnavailable"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The session id the caller chose at start (unique within the account).
                 * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
                 */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    stopSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The session id the caller chose at start (unique within the account).
                 * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
                 */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stopping; watch its status or events for the end. */
            204: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    joinPlayers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlayersRequest"];
            };
        };
        responses: {
            /** @description The session's players now. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerCount"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["QuotaExceeded"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    leavePlayers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlayersLeaveRequest"];
            };
        };
        responses: {
            /** @description The session's players now. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlayerCount"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listLocations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The locations. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocationList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAvailableLocations: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description An image name from the catalog.
                 * @example echo
                 */
                image: components["parameters"]["Image"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The locations, possibly none. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AvailableLocationList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getTagExists: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A location id.
                 * @example local-a
                 */
                region: string;
                /**
                 * @description An image name from the catalog.
                 * @example echo
                 */
                image: components["parameters"]["Image"];
                /**
                 * @description The image tag (Docker's "tag").
                 * @example latest
                 */
                version: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether the tag exists. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TagExists"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSessionLogs: {
        parameters: {
            query: {
                /**
                 * @description The session id.
                 * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
                 */
                id: string;
                /**
                 * @description Keep streaming while the session lives.
                 * @example false
                 */
                follow?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The log text. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            422: components["responses"]["InvalidRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    downloadArtifacts: {
        parameters: {
            query: {
                /**
                 * @description The session id.
                 * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
                 */
                session: string;
                /**
                 * @description A file or folder, relative to the session's working directory or absolute in the session's own view of its filesystem.
                 * @example replays
                 */
                path?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The archive. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/x-tar": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            422: components["responses"]["InvalidRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    streamEvents: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Resume after this event id; events still in the replay window are sent first.
                 * @example 41
                 */
                "Last-Event-ID"?: components["parameters"]["LastEventId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event stream. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "text/event-stream": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            422: components["responses"]["InvalidRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listSubscriptions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscriptions. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SubscriptionCreateRequest"];
            };
        };
        responses: {
            /** @description Created; `secret` signs deliveries and is shown only here. */
            201: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SubscriptionCreated"];
                };
            };
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sub_8d2k1q */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The subscription. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Subscription"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteSubscription: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sub_8d2k1q */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listDeliveries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @example sub_8d2k1q */
                id: components["parameters"]["SubscriptionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery attempts. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listTokens: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenCreateRequest"];
            };
        };
        responses: {
            /** @description Created; `token` holds the secret. */
            201: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenCreated"];
                };
            };
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revokeToken: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The token's id (not its value).
                 * @example tok_3kq9x1m2p8
                 */
                id: components["parameters"]["TokenId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            204: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    registerImageTag: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RegistryPush"];
            };
        };
        responses: {
            /** @description Accepted; the tag is registered. */
            202: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageTag"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getLiveness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The process is alive. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Liveness"];
                };
            };
            500: components["responses"]["InternalError"];
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ready. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            500: components["responses"]["InternalError"];
            /** @description Degraded; the problems say what is failing. */
            503: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
        };
    };
    getMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The metrics, in the Prometheus text format. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["Unauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getAdminSession: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The session. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSession"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    signIn: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdminSignIn"];
            };
        };
        responses: {
            /** @description Signed in; the session cookie is set. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminSession"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    signOut: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out. */
            204: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["AdminUnauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUsers: {
        parameters: {
            query?: {
                /**
                 * @description Part of the name, email or id, any case.
                 * @example studio
                 */
                q?: string;
                /**
                 * @description Page size. Without it every matching item is returned.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `next_cursor` of the previous page.
                 * @example WzE3OTUwMDAwMDAwMDAsIjBmOGU1YjBjLTZhMWQtNGE1ZS05ZDYxLTJmM2MxYjdhOWU0NCJd
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The page. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserList"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserCreateRequest"];
            };
        };
        responses: {
            /** @description Created. */
            201: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UserUpdateRequest"];
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["User"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserTokens: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The tokens. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenList"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createUserToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenCreateRequest"];
            };
        };
        responses: {
            /** @description Created; `token` holds the secret. */
            201: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenCreated"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deleteUserToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
                /**
                 * @description The token id.
                 * @example tok_3kq9x1m2p8
                 */
                tokenId: components["parameters"]["UserTokenId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted. */
            204: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateUserToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
                /**
                 * @description The token id.
                 * @example tok_3kq9x1m2p8
                 */
                tokenId: components["parameters"]["UserTokenId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TokenUpdateRequest"];
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Token"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    revealUserToken: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
                /**
                 * @description The token id.
                 * @example tok_3kq9x1m2p8
                 */
                tokenId: components["parameters"]["UserTokenId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The value. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TokenValue"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listUserAudit: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The account id.
                 * @example acc_5f2c9e1b7a3d
                 */
                id: components["parameters"]["UserId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The log. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditLog"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listFleetLocations: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The locations. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LocationList"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updateNode: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The node id, as in the fleet file.
                 * @example local-a-1
                 */
                id: components["parameters"]["NodeId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NodeUpdateRequest"];
            };
        };
        responses: {
            /** @description Updated. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Node"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listAllSessions: {
        parameters: {
            query?: {
                /**
                 * @description Only this account's sessions.
                 * @example acc_5f2c9e1b7a3d
                 */
                account?: string;
                /**
                 * @description Include ended sessions (`exited`, `dead`); default only live ones.
                 * @example false
                 */
                all?: components["parameters"]["SessionFilter_all"];
                /**
                 * @description Only sessions whose `location` equals this.
                 * @example local-a
                 */
                location?: components["parameters"]["SessionFilter_location"];
                /**
                 * @description Only sessions whose `image` equals this.
                 * @example echo
                 */
                image?: components["parameters"]["SessionFilter_image"];
                /**
                 * @description Only sessions whose `tag` equals this.
                 * @example latest
                 */
                tag?: components["parameters"]["SessionFilter_tag"];
                /**
                 * @description Only sessions whose `host` equals this.
                 * @example 127.0.0.1
                 */
                host?: components["parameters"]["SessionFilter_host"];
                /**
                 * @description Only sessions in this state.
                 * @example running
                 */
                status?: components["parameters"]["SessionFilter_status"];
                /**
                 * @description Page size. Without it every matching item is returned.
                 * @example 100
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The `next_cursor` of the previous page.
                 * @example WzE3OTUwMDAwMDAwMDAsIjBmOGU1YjBjLTZhMWQtNGE1ZS05ZDYxLTJmM2MxYjdhOWU0NCJd
                 */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sessions. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountSessionList"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    stopAnySession: {
        parameters: {
            query?: {
                /**
                 * @description The account that owns the session. Session ids are unique per account only: without it, an id
                 *     that several accounts use is 409 (details list the accounts).
                 * @example acc_5f2c9e1b7a3d
                 */
                account?: components["parameters"]["SessionAccount"];
            };
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The session id the caller chose at start (unique within the account).
                 * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
                 */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Stopping. */
            204: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    tailSessionLogs: {
        parameters: {
            query?: {
                /**
                 * @description The account that owns the session. Session ids are unique per account only: without it, an id
                 *     that several accounts use is 409 (details list the accounts).
                 * @example acc_5f2c9e1b7a3d
                 */
                account?: components["parameters"]["SessionAccount"];
            };
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path: {
                /**
                 * @description The session id the caller chose at start (unique within the account).
                 * @example 0f8e5b0c-6a1d-4a5e-9d61-2f3c1b7a9e44
                 */
                id: components["parameters"]["SessionId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The log tail. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "text/plain": string;
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listImages: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The catalog. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ImageCatalog"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getOverview: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The samples of the last hour. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    listWarmPools: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pools. */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WarmPoolList"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    sizeWarmPool: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The `csrf_token` of the admin sign-in. Every admin operation but sign-in needs it, reads too
                 *     (since 1.7.0; before, only changes): without it, or with another session's, the answer is 401.
                 *     A browser sends the `gsh_admin` cookie to every port of the panel's host, a game server's too;
                 *     the token, kept by the panel in its origin's storage, does not go there.
                 * @example c2Vzc2lvbi1jc3JmLXRva2VuLWV4YW1wbGU
                 */
                "X-CSRF-Token"?: components["parameters"]["CsrfToken"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WarmPoolSizeRequest"];
            };
        };
        responses: {
            /** @description The pool as it is now (its servers follow in the background). */
            200: {
                headers: {
                    "API-Version": components["headers"]["ApiVersion"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WarmPool"];
                };
            };
            401: components["responses"]["AdminUnauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["InvalidRequest"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
}
type FlattenedDeepRequired<T> = {
    [K in keyof T]-?: FlattenedDeepRequired<T[K] extends unknown[] | undefined | null ? Extract<T[K], unknown[]>[number] : T[K]>;
};
type ReadonlyArray<T> = [
    Exclude<T, undefined>
] extends [
    unknown[]
] ? Readonly<Exclude<T, undefined>> : Readonly<Exclude<T, undefined>[]>;
export const sessionStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SessionStatus"]> = ["created", "running", "restarting", "draining", "shuttingdown", "server_unreachable", "exited", "dead"];
export const portMappingTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["PortMapping"]["type"]> = ["tcp", "udp"];
export const endReasonValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["EndReason"]> = ["stopped", "exited", "crashed", "ttl_expired", "quota_exhausted", "start_failed", "node_lost"];
export const errorCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ErrorCode"]> = ["UNAUTHORIZED", "QUOTA_EXCEEDED", "RESOURCE_NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "CAPACITY_UNAVAILABLE", "INVALID_REQUEST", "TOO_MANY_REQUESTS", "INTERNAL_ERROR", "METHOD_NOT_ALLOWED", "BAD_REQUEST", "SERVICE_UNAVAILABLE"];
export const nodeDrainValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Node"]["drain"]> = ["none", "draining", "drained"];
export const nodeHealthValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Node"]["health"]> = ["up", "unreachable", "lost"];
export const locationStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Location"]["status"]> = ["available", "full", "locked"];
export const scopeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Scope"]> = ["session:start", "session:read", "session:stop", "logs:read", "artifact:read", "regions:read", "events:write", "token:write", "webhook:repohost", "metrics:read"];
export const tokenStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["TokenStatus"]> = ["active", "disabled", "expired"];
export const livenessStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Liveness"]["status"]> = ["alive"];
export const readinessStatusValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Readiness"]["status"]> = ["ready", "degraded"];
export const auditEntryActionValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["AuditEntry"]["action"]> = ["user_created", "user_updated", "user_disabled", "user_enabled", "token_created", "token_revealed", "token_disabled", "token_enabled", "token_deleted"];
export const imageCatalogImagesTagsSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["ImageCatalog"]["images"]["tags"]["source"]> = ["fleet", "registry"];
export const warmPoolSourceValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["WarmPool"]["source"]> = ["fleet", "panel"];
