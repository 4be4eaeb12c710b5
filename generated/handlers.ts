// Generated from spec/ by `npm run generate`. Do not edit by hand.
import type { ContextOf, OperationRequest, OperationResponse } from '../server/http/operation.js';

export type { OperationId } from '../server/http/operation.js';

/** One method per operationId, its context typed by the operation's security scheme; an implementation missing one does not compile. */
export interface Handlers {
  /** GET /session: List sessions (scopes: session:read) */
  listSessions(request: OperationRequest<'listSessions'>, context: ContextOf['bearer']): Promise<OperationResponse<'listSessions'>>;
  /** POST /session: Start a session (scopes: session:start) */
  startSession(request: OperationRequest<'startSession'>, context: ContextOf['bearer']): Promise<OperationResponse<'startSession'>>;
  /** GET /session/{id}: Get a session (scopes: session:read) */
  getSession(request: OperationRequest<'getSession'>, context: ContextOf['bearer']): Promise<OperationResponse<'getSession'>>;
  /** DELETE /session/{id}: Stop a session (scopes: session:stop) */
  stopSession(request: OperationRequest<'stopSession'>, context: ContextOf['bearer']): Promise<OperationResponse<'stopSession'>>;
  /** PUT /session/player/join: Add players to a session (scopes: session:start) */
  joinPlayers(request: OperationRequest<'joinPlayers'>, context: ContextOf['bearer']): Promise<OperationResponse<'joinPlayers'>>;
  /** DELETE /session/player/leave: Remove players from a session (scopes: session:start) */
  leavePlayers(request: OperationRequest<'leavePlayers'>, context: ContextOf['bearer']): Promise<OperationResponse<'leavePlayers'>>;
  /** GET /location: List locations (scopes: regions:read) */
  listLocations(request: OperationRequest<'listLocations'>, context: ContextOf['bearer']): Promise<OperationResponse<'listLocations'>>;
  /** GET /available-location/{image}: List locations where an image can start (scopes: regions:read) */
  listAvailableLocations(request: OperationRequest<'listAvailableLocations'>, context: ContextOf['bearer']): Promise<OperationResponse<'listAvailableLocations'>>;
  /** GET /tag/{region}/{image}/{version}: Check whether an image tag can run in a location (scopes: session:read) */
  getTagExists(request: OperationRequest<'getTagExists'>, context: ContextOf['bearer']): Promise<OperationResponse<'getTagExists'>>;
  /** GET /logs: Read a session's logs (scopes: logs:read) */
  getSessionLogs(request: OperationRequest<'getSessionLogs'>, context: ContextOf['bearer']): Promise<OperationResponse<'getSessionLogs'>>;
  /** GET /artifacts: Download a session's artifacts (scopes: artifact:read) */
  downloadArtifacts(request: OperationRequest<'downloadArtifacts'>, context: ContextOf['bearer']): Promise<OperationResponse<'downloadArtifacts'>>;
  /** GET /events: Stream session events (scopes: session:read) */
  streamEvents(request: OperationRequest<'streamEvents'>, context: ContextOf['bearer']): Promise<OperationResponse<'streamEvents'>>;
  /** GET /subscription: List webhook subscriptions (scopes: events:write) */
  listSubscriptions(request: OperationRequest<'listSubscriptions'>, context: ContextOf['bearer']): Promise<OperationResponse<'listSubscriptions'>>;
  /** POST /subscription: Create a webhook subscription (scopes: events:write, session:read) */
  createSubscription(request: OperationRequest<'createSubscription'>, context: ContextOf['bearer']): Promise<OperationResponse<'createSubscription'>>;
  /** GET /subscription/{id}: Get a webhook subscription (scopes: events:write) */
  getSubscription(request: OperationRequest<'getSubscription'>, context: ContextOf['bearer']): Promise<OperationResponse<'getSubscription'>>;
  /** DELETE /subscription/{id}: Delete a webhook subscription (scopes: events:write) */
  deleteSubscription(request: OperationRequest<'deleteSubscription'>, context: ContextOf['bearer']): Promise<OperationResponse<'deleteSubscription'>>;
  /** GET /subscription/{id}/delivery: List a subscription's deliveries (scopes: events:write) */
  listDeliveries(request: OperationRequest<'listDeliveries'>, context: ContextOf['bearer']): Promise<OperationResponse<'listDeliveries'>>;
  /** GET /token: List tokens (scopes: token:write) */
  listTokens(request: OperationRequest<'listTokens'>, context: ContextOf['bearer']): Promise<OperationResponse<'listTokens'>>;
  /** POST /token: Create a token (scopes: token:write) */
  createToken(request: OperationRequest<'createToken'>, context: ContextOf['bearer']): Promise<OperationResponse<'createToken'>>;
  /** DELETE /token/{id}: Revoke a token (scopes: token:write) */
  revokeToken(request: OperationRequest<'revokeToken'>, context: ContextOf['bearer']): Promise<OperationResponse<'revokeToken'>>;
  /** GET /account: Get the caller's account (scopes: any valid token) */
  getAccount(request: OperationRequest<'getAccount'>, context: ContextOf['bearer']): Promise<OperationResponse<'getAccount'>>;
  /** POST /webhook/repohost: Register a pushed image tag (scopes: webhook:repohost) */
  registerImageTag(request: OperationRequest<'registerImageTag'>, context: ContextOf['bearer']): Promise<OperationResponse<'registerImageTag'>>;
  /** GET /healthz: Check that the process is alive (scopes: no authentication) */
  getLiveness(request: OperationRequest<'getLiveness'>, context: ContextOf['none']): Promise<OperationResponse<'getLiveness'>>;
  /** GET /readyz: Check that the service can take traffic (scopes: no authentication) */
  getReadiness(request: OperationRequest<'getReadiness'>, context: ContextOf['none']): Promise<OperationResponse<'getReadiness'>>;
  /** GET /metrics: Read the service's metrics (scopes: metrics:read) */
  getMetrics(request: OperationRequest<'getMetrics'>, context: ContextOf['bearer']): Promise<OperationResponse<'getMetrics'>>;
  /** GET /admin/api/auth: Read the panel session (scopes: admin session) */
  getAdminSession(request: OperationRequest<'getAdminSession'>, context: ContextOf['adminSession']): Promise<OperationResponse<'getAdminSession'>>;
  /** POST /admin/api/auth: Sign in to the admin panel (scopes: no authentication) */
  signIn(request: OperationRequest<'signIn'>, context: ContextOf['none']): Promise<OperationResponse<'signIn'>>;
  /** DELETE /admin/api/auth: Sign out of the admin panel (scopes: admin session) */
  signOut(request: OperationRequest<'signOut'>, context: ContextOf['adminSession']): Promise<OperationResponse<'signOut'>>;
  /** GET /admin/api/user: List accounts (scopes: admin session) */
  listUsers(request: OperationRequest<'listUsers'>, context: ContextOf['adminSession']): Promise<OperationResponse<'listUsers'>>;
  /** POST /admin/api/user: Onboard an account (scopes: admin session) */
  createUser(request: OperationRequest<'createUser'>, context: ContextOf['adminSession']): Promise<OperationResponse<'createUser'>>;
  /** GET /admin/api/user/{id}: Read an account (scopes: admin session) */
  getUser(request: OperationRequest<'getUser'>, context: ContextOf['adminSession']): Promise<OperationResponse<'getUser'>>;
  /** PATCH /admin/api/user/{id}: Update an account (scopes: admin session) */
  updateUser(request: OperationRequest<'updateUser'>, context: ContextOf['adminSession']): Promise<OperationResponse<'updateUser'>>;
  /** GET /admin/api/user/{id}/token: List an account's tokens (scopes: admin session) */
  listUserTokens(request: OperationRequest<'listUserTokens'>, context: ContextOf['adminSession']): Promise<OperationResponse<'listUserTokens'>>;
  /** POST /admin/api/user/{id}/token: Add a token to an account (scopes: admin session) */
  createUserToken(request: OperationRequest<'createUserToken'>, context: ContextOf['adminSession']): Promise<OperationResponse<'createUserToken'>>;
  /** DELETE /admin/api/user/{id}/token/{tokenId}: Delete a token (scopes: admin session) */
  deleteUserToken(request: OperationRequest<'deleteUserToken'>, context: ContextOf['adminSession']): Promise<OperationResponse<'deleteUserToken'>>;
  /** PATCH /admin/api/user/{id}/token/{tokenId}: Disable or enable a token (scopes: admin session) */
  updateUserToken(request: OperationRequest<'updateUserToken'>, context: ContextOf['adminSession']): Promise<OperationResponse<'updateUserToken'>>;
  /** POST /admin/api/user/{id}/token/{tokenId}/reveal: Reveal a token's value (scopes: admin session) */
  revealUserToken(request: OperationRequest<'revealUserToken'>, context: ContextOf['adminSession']): Promise<OperationResponse<'revealUserToken'>>;
  /** GET /admin/api/user/{id}/audit: Read an account's audit log (scopes: admin session) */
  listUserAudit(request: OperationRequest<'listUserAudit'>, context: ContextOf['adminSession']): Promise<OperationResponse<'listUserAudit'>>;
  /** GET /admin/api/location: List every location (scopes: admin session) */
  listFleetLocations(request: OperationRequest<'listFleetLocations'>, context: ContextOf['adminSession']): Promise<OperationResponse<'listFleetLocations'>>;
  /** PATCH /admin/api/node/{id}: Lock, unlock or drain a node (scopes: admin session) */
  updateNode(request: OperationRequest<'updateNode'>, context: ContextOf['adminSession']): Promise<OperationResponse<'updateNode'>>;
  /** GET /admin/api/session: List sessions of every account (scopes: admin session) */
  listAllSessions(request: OperationRequest<'listAllSessions'>, context: ContextOf['adminSession']): Promise<OperationResponse<'listAllSessions'>>;
  /** DELETE /admin/api/session/{id}: Stop any session (scopes: admin session) */
  stopAnySession(request: OperationRequest<'stopAnySession'>, context: ContextOf['adminSession']): Promise<OperationResponse<'stopAnySession'>>;
  /** GET /admin/api/session/{id}/logs: Read the tail of a session's logs (scopes: admin session) */
  tailSessionLogs(request: OperationRequest<'tailSessionLogs'>, context: ContextOf['adminSession']): Promise<OperationResponse<'tailSessionLogs'>>;
  /** GET /admin/api/image: List the image catalog (scopes: admin session) */
  listImages(request: OperationRequest<'listImages'>, context: ContextOf['adminSession']): Promise<OperationResponse<'listImages'>>;
  /** GET /admin/api/overview: Read the overview of the last hour (scopes: admin session) */
  getOverview(request: OperationRequest<'getOverview'>, context: ContextOf['adminSession']): Promise<OperationResponse<'getOverview'>>;
  /** GET /admin/api/pool: List the warm pools (scopes: admin session) */
  listWarmPools(request: OperationRequest<'listWarmPools'>, context: ContextOf['adminSession']): Promise<OperationResponse<'listWarmPools'>>;
  /** PUT /admin/api/pool: Size a warm pool (scopes: admin session) */
  sizeWarmPool(request: OperationRequest<'sizeWarmPool'>, context: ContextOf['adminSession']): Promise<OperationResponse<'sizeWarmPool'>>;
}
