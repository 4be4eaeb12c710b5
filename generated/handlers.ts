// Generated from spec/ by `npm run generate`. Do not edit by hand.
import type { Readable } from 'node:stream';
import type { operations } from './types.js';

export type OperationId = keyof operations;

type Present<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;
/** Node lower-cases incoming header names; so do the validated headers. */
type LowercaseKeys<T> = { [P in keyof T as Lowercase<P & string>]: T[P] };
type Parameters<K extends OperationId> = operations[K]['parameters'];

/** The validated parts of a request to operation K, typed from the spec. */
export interface OperationRequest<K extends OperationId> {
  params: Present<Parameters<K>['path']>;
  query: Present<Parameters<K>['query']>;
  headers: LowercaseKeys<Present<Parameters<K>['header']>>;
  body: operations[K]['requestBody'] extends { content: { 'application/json': infer B } } ? B : undefined;
}

type ResponseBody<R> = R extends { content: { 'application/json': infer B } }
  ? B
  : R extends { content: Record<string, unknown> }
    ? string | Buffer | Readable
    : undefined;

type Reply<S, B> = [B] extends [undefined]
  ? { status: S; body?: undefined; headers?: Record<string, string> }
  : { status: S; body: B; headers?: Record<string, string> };

/** One of the responses documented for operation K: its status and a body of that status's type. */
export type OperationResponse<K extends OperationId> = {
  [S in keyof operations[K]['responses']]: Reply<S, ResponseBody<operations[K]['responses'][S]>>;
}[keyof operations[K]['responses']];

/** One method per operationId; an implementation missing one does not compile. */
export interface Handlers<Context> {
  /** GET /session: List sessions (scopes: session:read) */
  listSessions(request: OperationRequest<'listSessions'>, context: Context): Promise<OperationResponse<'listSessions'>>;
  /** POST /session: Start a session (scopes: session:start) */
  startSession(request: OperationRequest<'startSession'>, context: Context): Promise<OperationResponse<'startSession'>>;
  /** GET /session/{id}: Get a session (scopes: session:read) */
  getSession(request: OperationRequest<'getSession'>, context: Context): Promise<OperationResponse<'getSession'>>;
  /** DELETE /session/{id}: Stop a session (scopes: session:stop) */
  stopSession(request: OperationRequest<'stopSession'>, context: Context): Promise<OperationResponse<'stopSession'>>;
  /** PUT /session/player/join: Add players to a session (scopes: session:start) */
  joinPlayers(request: OperationRequest<'joinPlayers'>, context: Context): Promise<OperationResponse<'joinPlayers'>>;
  /** DELETE /session/player/leave: Remove players from a session (scopes: session:start) */
  leavePlayers(request: OperationRequest<'leavePlayers'>, context: Context): Promise<OperationResponse<'leavePlayers'>>;
  /** GET /location: List locations (scopes: regions:read) */
  listLocations(request: OperationRequest<'listLocations'>, context: Context): Promise<OperationResponse<'listLocations'>>;
  /** GET /available-location/{image}: List locations where an image can start (scopes: regions:read) */
  listAvailableLocations(request: OperationRequest<'listAvailableLocations'>, context: Context): Promise<OperationResponse<'listAvailableLocations'>>;
  /** GET /logs: Read a session's logs (scopes: logs:read) */
  getSessionLogs(request: OperationRequest<'getSessionLogs'>, context: Context): Promise<OperationResponse<'getSessionLogs'>>;
  /** GET /artifacts: Download a session's artifacts (scopes: artifact:read) */
  downloadArtifacts(request: OperationRequest<'downloadArtifacts'>, context: Context): Promise<OperationResponse<'downloadArtifacts'>>;
  /** GET /events: Stream session events (scopes: session:read) */
  streamEvents(request: OperationRequest<'streamEvents'>, context: Context): Promise<OperationResponse<'streamEvents'>>;
  /** GET /subscription: List webhook subscriptions (scopes: events:write) */
  listSubscriptions(request: OperationRequest<'listSubscriptions'>, context: Context): Promise<OperationResponse<'listSubscriptions'>>;
  /** POST /subscription: Create a webhook subscription (scopes: events:write) */
  createSubscription(request: OperationRequest<'createSubscription'>, context: Context): Promise<OperationResponse<'createSubscription'>>;
  /** DELETE /subscription/{id}: Delete a webhook subscription (scopes: events:write) */
  deleteSubscription(request: OperationRequest<'deleteSubscription'>, context: Context): Promise<OperationResponse<'deleteSubscription'>>;
  /** GET /subscription/{id}/delivery: List a subscription's deliveries (scopes: events:write) */
  listDeliveries(request: OperationRequest<'listDeliveries'>, context: Context): Promise<OperationResponse<'listDeliveries'>>;
  /** GET /token: List tokens (scopes: token:write) */
  listTokens(request: OperationRequest<'listTokens'>, context: Context): Promise<OperationResponse<'listTokens'>>;
  /** POST /token: Create a token (scopes: token:write) */
  createToken(request: OperationRequest<'createToken'>, context: Context): Promise<OperationResponse<'createToken'>>;
  /** DELETE /token/{id}: Revoke a token (scopes: token:write) */
  revokeToken(request: OperationRequest<'revokeToken'>, context: Context): Promise<OperationResponse<'revokeToken'>>;
  /** GET /account: Get the caller's account (scopes: any valid token) */
  getAccount(request: OperationRequest<'getAccount'>, context: Context): Promise<OperationResponse<'getAccount'>>;
  /** POST /webhook/repohost: Register a pushed image tag (scopes: webhook:repohost) */
  registerImageTag(request: OperationRequest<'registerImageTag'>, context: Context): Promise<OperationResponse<'registerImageTag'>>;
  /** GET /healthz: Check that the process is alive (scopes: no authentication) */
  getLiveness(request: OperationRequest<'getLiveness'>, context: Context): Promise<OperationResponse<'getLiveness'>>;
  /** GET /readyz: Check that the service can take traffic (scopes: no authentication) */
  getReadiness(request: OperationRequest<'getReadiness'>, context: Context): Promise<OperationResponse<'getReadiness'>>;
  /** GET /admin/api/auth: Read the panel session (scopes: admin session) */
  getAdminSession(request: OperationRequest<'getAdminSession'>, context: Context): Promise<OperationResponse<'getAdminSession'>>;
  /** POST /admin/api/auth: Sign in to the admin panel (scopes: no authentication) */
  signIn(request: OperationRequest<'signIn'>, context: Context): Promise<OperationResponse<'signIn'>>;
  /** DELETE /admin/api/auth: Sign out of the admin panel (scopes: admin session) */
  signOut(request: OperationRequest<'signOut'>, context: Context): Promise<OperationResponse<'signOut'>>;
  /** GET /admin/api/user: List accounts (scopes: admin session) */
  listUsers(request: OperationRequest<'listUsers'>, context: Context): Promise<OperationResponse<'listUsers'>>;
  /** POST /admin/api/user: Onboard an account (scopes: admin session) */
  createUser(request: OperationRequest<'createUser'>, context: Context): Promise<OperationResponse<'createUser'>>;
  /** GET /admin/api/user/{id}: Read an account (scopes: admin session) */
  getUser(request: OperationRequest<'getUser'>, context: Context): Promise<OperationResponse<'getUser'>>;
  /** PATCH /admin/api/user/{id}: Update an account (scopes: admin session) */
  updateUser(request: OperationRequest<'updateUser'>, context: Context): Promise<OperationResponse<'updateUser'>>;
  /** GET /admin/api/user/{id}/token: List an account's tokens (scopes: admin session) */
  listUserTokens(request: OperationRequest<'listUserTokens'>, context: Context): Promise<OperationResponse<'listUserTokens'>>;
  /** POST /admin/api/user/{id}/token: Add a token to an account (scopes: admin session) */
  createUserToken(request: OperationRequest<'createUserToken'>, context: Context): Promise<OperationResponse<'createUserToken'>>;
  /** DELETE /admin/api/user/{id}/token/{tokenId}: Delete a token (scopes: admin session) */
  deleteUserToken(request: OperationRequest<'deleteUserToken'>, context: Context): Promise<OperationResponse<'deleteUserToken'>>;
  /** PATCH /admin/api/user/{id}/token/{tokenId}: Disable or enable a token (scopes: admin session) */
  updateUserToken(request: OperationRequest<'updateUserToken'>, context: Context): Promise<OperationResponse<'updateUserToken'>>;
  /** POST /admin/api/user/{id}/token/{tokenId}/reveal: Reveal a token's value (scopes: admin session) */
  revealUserToken(request: OperationRequest<'revealUserToken'>, context: Context): Promise<OperationResponse<'revealUserToken'>>;
  /** GET /admin/api/user/{id}/audit: Read an account's audit log (scopes: admin session) */
  listUserAudit(request: OperationRequest<'listUserAudit'>, context: Context): Promise<OperationResponse<'listUserAudit'>>;
  /** GET /admin/api/location: List every location (scopes: admin session) */
  listFleetLocations(request: OperationRequest<'listFleetLocations'>, context: Context): Promise<OperationResponse<'listFleetLocations'>>;
  /** PATCH /admin/api/node/{id}: Lock or unlock a node (scopes: admin session) */
  updateNode(request: OperationRequest<'updateNode'>, context: Context): Promise<OperationResponse<'updateNode'>>;
  /** GET /admin/api/session: List sessions of every account (scopes: admin session) */
  listAllSessions(request: OperationRequest<'listAllSessions'>, context: Context): Promise<OperationResponse<'listAllSessions'>>;
  /** DELETE /admin/api/session/{id}: Stop any session (scopes: admin session) */
  stopAnySession(request: OperationRequest<'stopAnySession'>, context: Context): Promise<OperationResponse<'stopAnySession'>>;
  /** GET /admin/api/session/{id}/logs: Read the tail of a session's logs (scopes: admin session) */
  tailSessionLogs(request: OperationRequest<'tailSessionLogs'>, context: Context): Promise<OperationResponse<'tailSessionLogs'>>;
  /** GET /admin/api/image: List the image catalog (scopes: admin session) */
  listImages(request: OperationRequest<'listImages'>, context: Context): Promise<OperationResponse<'listImages'>>;
}
