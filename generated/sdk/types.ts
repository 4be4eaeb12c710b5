// Generated from spec/ by `npm run generate`. Do not edit by hand.
export interface paths {
    "/allocation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the allocation
         * @description The session this game server runs for: its id, labels, host, ports and players. A warm game
         *     server (not yet allocated) gets `state: warm` and no `session`; with `waitSeconds` the answer
         *     waits up to that long for the allocation and comes as soon as there is one.
         */
        get: operations["getAllocation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report the game server ready
         * @description The game server can take players. For an image tag with `readiness: sdk` this is what makes
         *     the session `running` (a warm game server: ready to be allocated). Calling it again changes
         *     nothing.
         */
        post: operations["markReady"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Ping health
         * @description The game server is healthy. When its image tag sets `healthSeconds` (fleet file), a game server that
         *     has called `POST /ready` and then goes that long without a ping is considered hung: it is
         *     killed (and restarted when the session asked for `restart`).
         */
        post: operations["reportHealth"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/player/{player}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The player's id, as the game knows it.
                 * @example player-7
                 */
                player: components["parameters"]["Player"];
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Report a player connected
         * @description A player connected to the game server. Connected players are part of the allocation
         *     (`connected`); connecting one already connected changes nothing. At most 1,024 at a time.
         */
        put: operations["connectPlayer"];
        post?: never;
        /**
         * Report a player disconnected
         * @description A player left the game server; one not connected changes nothing.
         */
        delete: operations["disconnectPlayer"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description One declared port. */
        Port: {
            name: string;
            /** @enum {string} */
            type: "tcp" | "udp";
            host: number;
        };
        /** @description The session a game server is allocated to (present once `state` is `allocated`). */
        AllocatedSession: {
            /** @description The session id (as in the control API). */
            id: string;
            /** @description The session's labels. */
            labels: {
                [key: string]: string;
            };
            /** @description The address clients connect to. */
            host: string;
            /** @description The declared ports and the host ports allocated to them (the game binds the same number). */
            ports: components["schemas"]["Port"][];
            /**
             * @description The players the control API has joined to the session (`PUT /session/player/join`), kept
             *     current as they join and leave; their ids as the control API took them, 1 to 128 characters
             *     of any kind (since 1.2.0: they were typed as PlayerId, whose pattern only the ids this SDK
             *     takes in `/player/{player}` follow, so a joined `Ünï` or `a b` broke the schema).
             */
            players: string[];
        };
        /** @description A player's id. */
        PlayerId: string;
        /** @description What the game server runs for. */
        Allocation: {
            /**
             * @description `warm`: started ahead of demand, not yet allocated; `allocated`: running for `session`.
             * @enum {string}
             */
            state: "warm" | "allocated";
            session?: components["schemas"]["AllocatedSession"];
            /** @description The players the game server reported connected, in the order they connected. */
            connected: components["schemas"]["PlayerId"][];
        };
        /** @description What was wrong with the call. */
        SdkError: {
            /**
             * @description `BAD_REQUEST`, `NOT_FOUND` (no such operation), `FULL` (too many players connected) or
             *     `TOO_MANY_REQUESTS` (calls past the session's budget: wait `Retry-After` seconds).
             * @enum {string}
             */
            code: "BAD_REQUEST" | "NOT_FOUND" | "FULL" | "TOO_MANY_REQUESTS";
            message: string;
        };
    };
    responses: {
        /** @description The call was malformed (a parameter out of range or of the wrong form, or a request body, which no call takes; its connection is then closed, the body unread). */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["SdkError"];
            };
        };
        /**
         * @description More calls than the session's budget (50 a second, in bursts of up to 200): wait Retry-After
         *     seconds. The connection is closed after this answer; calls already sent on it are not answered.
         *     A flood past even these answers finds the socket gone until then.
         */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["SdkError"];
            };
        };
        /** @description As many players are connected as the SDK keeps (1,024). */
        Full: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["SdkError"];
            };
        };
    };
    parameters: {
        /**
         * @description Wait up to this many seconds for an allocation when there is none yet (0, the default, answers at once).
         * @example 30
         */
        WaitSeconds: number;
        /**
         * @description The player's id, as the game knows it.
         * @example player-7
         */
        Player: components["schemas"]["PlayerId"];
    };
    requestBodies: never;
    headers: {
        /** @description Whole seconds to wait before the next call is admitted (at least 1). */
        RetryAfter: number;
    };
    pathItems: never;
}
export type Port = components['schemas']['Port'];
export type AllocatedSession = components['schemas']['AllocatedSession'];
export type PlayerId = components['schemas']['PlayerId'];
export type Allocation = components['schemas']['Allocation'];
export type SdkError = components['schemas']['SdkError'];
export type ResponseBadRequest = components['responses']['BadRequest'];
export type ResponseTooManyRequests = components['responses']['TooManyRequests'];
export type ResponseFull = components['responses']['Full'];
export type ParameterWaitSeconds = components['parameters']['WaitSeconds'];
export type ParameterPlayer = components['parameters']['Player'];
export type HeaderRetryAfter = components['headers']['RetryAfter'];
export type $defs = Record<string, never>;
export interface operations {
    getAllocation: {
        parameters: {
            query?: {
                /**
                 * @description Wait up to this many seconds for an allocation when there is none yet (0, the default, answers at once).
                 * @example 30
                 */
                waitSeconds?: components["parameters"]["WaitSeconds"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The allocation as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Allocation"];
                };
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    markReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    reportHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    connectPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The player's id, as the game knows it.
                 * @example player-7
                 */
                player: components["parameters"]["Player"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            409: components["responses"]["Full"];
            429: components["responses"]["TooManyRequests"];
        };
    };
    disconnectPlayer: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The player's id, as the game knows it.
                 * @example player-7
                 */
                player: components["parameters"]["Player"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Recorded. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            429: components["responses"]["TooManyRequests"];
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
export const portTypeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Port"]["type"]> = ["tcp", "udp"];
export const allocationStateValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["Allocation"]["state"]> = ["warm", "allocated"];
export const sdkErrorCodeValues: ReadonlyArray<FlattenedDeepRequired<components>["schemas"]["SdkError"]["code"]> = ["BAD_REQUEST", "NOT_FOUND", "FULL", "TOO_MANY_REQUESTS"];
