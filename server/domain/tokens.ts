/**
 * Tokens: minting, listing, revoking, and deciding whether a presented value authenticates.
 * Knows nothing of HTTP or SQL: storage is the TokenRepository port, secrets the TokenVault.
 */
import { parseDuration } from './duration.js';
import { missingScopes, ungrantableScopes, type Scope } from './scopes.js';
import type { AccountGate, TokenRecord, TokenRepository, TokenVault } from './ports/tokens.js';

export interface Principal {
  accountId: string;
  tokenId: string;
  scopes: ReadonlySet<Scope>;
  expiresAt: number | null;
}

/** Why authentication failed; each is a distinct 401 `details`. */
export type AuthFailure =
  | { reason: 'missing' }
  | { reason: 'scheme' }
  | { reason: 'malformed' }
  | { reason: 'unknown' }
  | { reason: 'revoked' }
  | { reason: 'disabled' }
  | { reason: 'expired' }
  | { reason: 'issuer_invalid' }
  | { reason: 'account_disabled' }
  | { reason: 'insufficient_scope'; missing: Scope[] };

export type AuthResult = { ok: true; principal: Principal } | ({ ok: false } & AuthFailure);

export type TokenStatus = 'active' | 'disabled' | 'expired';

export interface TokenView {
  id: string;
  name: string;
  scopes: Scope[];
  token: string;
  status: TokenStatus;
  expiresAt: number | null;
  created: number;
  lastUsed: number | null;
}

export interface CreateTokenInput {
  name: string;
  scopes: Scope[];
  expiresAfter?: string;
}

export type CreateTokenResult =
  | { ok: true; record: TokenRecord; value: string }
  | { ok: false; reason: 'ungrantable'; scopes: Scope[] }
  | { ok: false; reason: 'bad_duration' }
  /** The account holds as many unexpired tokens as it may: revoke one first. */
  | { ok: false; reason: 'too_many'; max: number }
  /** The issuer already has as many issuers above it as a token may (MAX_DELEGATION_DEPTH): mint from one nearer its root. */
  | { ok: false; reason: 'too_deep'; max: number };

/** Unexpired, unrevoked tokens an account may mint through the API (TOKENS_PER_ACCOUNT). */
export const DEFAULT_TOKENS_PER_ACCOUNT = 500;

/**
 * Issuers above a token minted through the API, at most (README, Limits): a root token (bootstrap,
 * panel) mints depth 1, which mints depth 2, ... down to 8. Every uncached verdict reads the token
 * and each issuer, so this bounds a request's store reads (9) and a revoked chain's size; real
 * delegation (root -> CI -> job -> one client) needs 3 or 4 levels, 8 leaves room. Unbounded, a
 * chain ran ~500 deep and 28 idle streams on its tip cost a fifth of a core (outside check 8, F4).
 */
export const MAX_DELEGATION_DEPTH = 8;

/** A token known to be fine with every issuer above it, from `at` until `until` (their soonest expiry). */
interface FineChain {
  accountId: string;
  until: number;
  at: number;
}

export interface TokensOptions {
  /**
   * Longest a cached verdict is trusted (ms). Alone, every write forgets at once and this may be
   * unbounded; with several instances, other instances' forgets come over a bus that can lose a
   * message, so a cap bounds how long a revoked token can still pass here.
   */
  verdictMaxAgeMs?: number;
  /** Tokens that still count (neither revoked nor expired) an account may hold when minting through the API. */
  perAccount?: number;
}

export class Tokens {
  /** Uses seen since the last flush, so authentication does not write on every request. */
  private readonly pendingUses = new Map<string, number>();
  /**
   * Principals of values that passed every check, by the value itself: a hit costs one map
   * lookup, no hash and no promise (the read path's profile, issue 19). Only values that
   * authenticated are kept, so a stranger cannot grow it; the values live in memory no longer
   * than the cap or the next forget. Every write that could change a verdict calls
   * forgetVerified(); with several instances, theirs arrive through forgetVerifiedElsewhere().
   * Expiry and the cap (options.verdictMaxAgeMs) are checked on each hit.
   */
  private readonly verified = new Map<string, { principal: Principal; at: number }>();
  /**
   * Token ids whose token and every issuer above it were neither revoked, disabled nor expired when
   * read, until their soonest expiry: the open-stream sweep asks about each held stream's token four
   * times a second, and uncached each ask re-read the whole issuer chain. Kept like `verified`
   * (dropped on every forget, aged by the cap), so an idle sweep reads nothing, and after a forget
   * each token of the held chains is read once, whatever their depth and number.
   */
  private readonly fineChains = new Map<string, FineChain>();
  /** Accounts found active (not disabled), by id, from when; kept like fineChains. */
  private readonly activeAccounts = new Map<string, number>();
  /** Counts forgets: a verdict read before a forget is not cached after it. */
  private generation = 0;
  private readonly forgetListeners: (() => void)[] = [];

  constructor(
    private readonly repository: TokenRepository,
    private readonly vault: TokenVault,
    private readonly accounts: AccountGate,
    private readonly now: () => number,
    private readonly options: TokensOptions = {},
  ) {}

  /** Authenticate a bearer value and check it holds the required scopes. */
  async authenticate(value: string, required: readonly Scope[]): Promise<AuthResult> {
    return this.authenticateCached(value, required) ?? this.verify(value, required);
  }

  /** The verdict for a value whose principal is cached and fresh, at once; undefined: ask authenticate(). */
  authenticateCached(value: string, required: readonly Scope[]): AuthResult | undefined {
    const cached = this.fresh(value);
    return cached && this.authorize(cached, required);
  }

  private async verify(value: string, required: readonly Scope[]): Promise<AuthResult> {
    if (!this.vault.isWellFormed(value)) return { ok: false, reason: 'malformed' };
    const hash = this.vault.hash(value);
    const generation = this.generation;
    const found = await this.repository.findByHash(hash);
    if (!found || !this.vault.sameHash(found.hash, hash)) return { ok: false, reason: 'unknown' };

    const problem = await this.whyInvalid(found, this.now());
    if (problem) return { ok: false, reason: problem };
    // The issuers' expiries bound this token's already (a derived token never outlives its issuer).
    const principal = { accountId: found.accountId, tokenId: found.id, scopes: new Set(found.scopes), expiresAt: found.expiresAt };
    if (generation === this.generation) this.verified.set(value, { principal, at: this.now() });
    return this.authorize(principal, required);
  }

  /** A cached principal still usable now: not expired, and not older than the verdict cap. */
  private fresh(value: string): Principal | undefined {
    const cached = this.verified.get(value);
    if (!cached) return undefined;
    const now = this.now();
    const { principal } = cached;
    if ((principal.expiresAt !== null && principal.expiresAt <= now) || now - cached.at >= (this.options.verdictMaxAgeMs ?? Infinity)) {
      this.verified.delete(value);
      return undefined;
    }
    return principal;
  }

  /**
   * Whether a token still authenticates (not revoked, disabled or expired, its account and
   * issuers fine): open streams ask this, to end when their token no longer would.
   */
  async isLive(tokenId: string): Promise<boolean> {
    const now = this.now();
    const chain = await this.fineChain(tokenId, now);
    return chain !== undefined && (await this.accountActive(chain.accountId, now));
  }

  private async whyInvalid(found: TokenRecord, now: number): Promise<'revoked' | 'disabled' | 'expired' | 'account_disabled' | 'issuer_invalid' | undefined> {
    const own = this.problemWith(found, now);
    if (own) return own;
    if (!(await this.accountActive(found.accountId, now))) return 'account_disabled';
    if (found.issuerId !== null && !(await this.fineChain(found.issuerId, now))) return 'issuer_invalid';
    return undefined;
  }

  /** The token and every issuer above it are fine now (their account aside): known, or read and kept. */
  private async fineChain(tokenId: string, now: number): Promise<FineChain | undefined> {
    const known = this.fineChains.get(tokenId);
    if (known && known.until > now && this.young(known.at, now)) return known;
    if (known) this.fineChains.delete(tokenId);
    const generation = this.generation;
    const record = await this.repository.findById(tokenId);
    if (!record || this.problemWith(record, now)) return undefined;
    let until = record.expiresAt ?? Infinity;
    // Up the chain only as far as the first issuer known fine: each token is read once between forgets.
    if (record.issuerId !== null) {
      const issuers = await this.fineChain(record.issuerId, now);
      if (!issuers) return undefined;
      until = Math.min(until, issuers.until);
    }
    const chain = { accountId: record.accountId, until, at: now };
    if (generation === this.generation) this.fineChains.set(tokenId, chain);
    return chain;
  }

  private async accountActive(accountId: string, now: number): Promise<boolean> {
    const since = this.activeAccounts.get(accountId);
    if (since !== undefined && this.young(since, now)) return true;
    const generation = this.generation;
    const active = await this.accounts.isAccountActive(accountId);
    if (active && generation === this.generation) this.activeAccounts.set(accountId, now);
    return active;
  }

  /** A verdict read at `at` may still be trusted (options.verdictMaxAgeMs). */
  private young(at: number, now: number): boolean {
    return now - at < (this.options.verdictMaxAgeMs ?? Infinity);
  }

  /** Drop every cached verdict; called by every write to tokens or accounts (listeners tell other instances). */
  forgetVerified(): void {
    this.forgetVerifiedElsewhere();
    for (const listener of this.forgetListeners) listener();
  }

  /** Another instance changed tokens or accounts (or its news may have been missed): drop every cached verdict. */
  forgetVerifiedElsewhere(): void {
    this.verified.clear();
    this.fineChains.clear();
    this.activeAccounts.clear();
    this.generation++;
  }

  /** Told after every local forgetVerified(). */
  onForget(listener: () => void): void {
    this.forgetListeners.push(listener);
  }

  private authorize(principal: Principal, required: readonly Scope[]): AuthResult {
    // Checked before listing what is missing: the list is an array per request, and nearly every request lacks nothing.
    for (const scope of required) {
      if (!principal.scopes.has(scope)) return { ok: false, reason: 'insufficient_scope', missing: missingScopes(principal.scopes, required) };
    }
    this.pendingUses.set(principal.tokenId, this.now());
    return { ok: true, principal };
  }

  /** Mint a token for the principal's account, within the principal's scopes and lifetime. */
  async create(issuer: Principal, input: CreateTokenInput): Promise<CreateTokenResult> {
    const ungrantable = ungrantableScopes(issuer.scopes, input.scopes);
    if (ungrantable.length > 0) return { ok: false, reason: 'ungrantable', scopes: ungrantable };
    let lifetime: number | undefined;
    if (input.expiresAfter !== undefined) {
      lifetime = parseDuration(input.expiresAfter);
      if (lifetime === undefined) return { ok: false, reason: 'bad_duration' };
    }
    if ((await this.issuersAbove(issuer.tokenId, MAX_DELEGATION_DEPTH)) >= MAX_DELEGATION_DEPTH) {
      return { ok: false, reason: 'too_deep', max: MAX_DELEGATION_DEPTH };
    }
    const now = this.now();
    const max = this.options.perAccount ?? DEFAULT_TOKENS_PER_ACCOUNT;
    const requested = lifetime === undefined ? null : now + lifetime;
    // A derived token never outlives the token that issued it.
    const expiresAt =
      issuer.expiresAt === null ? requested : Math.min(requested ?? Number.MAX_SAFE_INTEGER, issuer.expiresAt);
    const { record, value, secret } = this.newToken(
      { accountId: issuer.accountId, issuerId: issuer.tokenId, name: input.name, scopes: [...new Set(input.scopes)], expiresAt },
      now,
    );
    // Counted and inserted in one step: concurrent requests (or instances) cannot pass the cap together.
    if (!(await this.repository.insertWithin(record, secret, { max, now, keepEnded: max }))) return { ok: false, reason: 'too_many', max };
    return { ok: true, record, value };
  }

  /** How many issuers the token has above it, counted up to `atMost` (a chain made before the cap may run longer). */
  private async issuersAbove(tokenId: string, atMost: number): Promise<number> {
    let count = 0;
    for (let id = (await this.repository.findById(tokenId))?.issuerId ?? null; id !== null && count < atMost; count++) {
      id = (await this.repository.findById(id))?.issuerId ?? null;
    }
    return count;
  }

  /** Mint a token with no issuer (bootstrap, operators), optionally with a given value. */
  async mint(
    { created, ...spec }: Pick<TokenRecord, 'accountId' | 'issuerId' | 'name' | 'scopes' | 'expiresAt'> & { created?: number },
    value: string = this.vault.newValue(),
  ): Promise<{ ok: true; record: TokenRecord; value: string }> {
    const token = this.newToken(spec, created ?? this.now(), value);
    await this.repository.insert(token.record, token.secret);
    return { ok: true, record: token.record, value: token.value };
  }

  private newToken(
    spec: Pick<TokenRecord, 'accountId' | 'issuerId' | 'name' | 'scopes' | 'expiresAt'>,
    /** The instant a lifetime was counted from, when there was one: expires_at - created is then exactly it. */
    created: number,
    value: string = this.vault.newValue(),
  ) {
    const id = this.vault.newId();
    const record: TokenRecord = { ...spec, id, hint: this.vault.hint(value), created, disabled: false, revokedAt: null, lastUsed: null };
    return { record, value, secret: { hash: this.vault.hash(value), sealed: this.vault.seal(value, id) } };
  }

  async list(accountId: string): Promise<TokenView[]> {
    const now = this.now();
    return (await this.repository.listActive(accountId)).map((record) => this.view(record, now));
  }

  view(record: TokenRecord, now = this.now()): TokenView {
    return {
      id: record.id,
      name: record.name,
      scopes: record.scopes,
      token: this.vault.mask(record.hint),
      status: record.disabled ? 'disabled' : isExpired(record, now) ? 'expired' : 'active',
      expiresAt: record.expiresAt,
      created: record.created,
      lastUsed: this.pendingUses.get(record.id) ?? record.lastUsed,
    };
  }

  /** Revoke one of the account's tokens (operators: any); false when the account has no such live token. */
  async revoke(accountId: string, tokenId: string): Promise<boolean> {
    const record = await this.repository.findById(tokenId);
    if (!record || record.accountId !== accountId || record.revokedAt !== null) return false;
    await this.repository.revokeWithDescendants(tokenId, this.now());
    this.forgetVerified();
    return true;
  }

  /**
   * Revoke a token as a caller: a token may revoke itself and the tokens it minted
   * (transitively); a root token of the account (no issuer) may revoke any of its tokens. False
   * when the token is not one the caller may revoke, which callers see as unknown.
   */
  async revokeAs(caller: Principal, tokenId: string): Promise<boolean> {
    return (await this.mayRevoke(caller, tokenId)) && this.revoke(caller.accountId, tokenId);
  }

  private async mayRevoke(caller: Principal, tokenId: string): Promise<boolean> {
    if ((await this.repository.findById(caller.tokenId))?.issuerId === null) return true;
    // Up the target's issuer chain: the caller is the target or one of its issuers.
    for (let id: string | null = tokenId; id !== null; ) {
      if (id === caller.tokenId) return true;
      id = (await this.repository.findById(id))?.issuerId ?? null;
    }
    return false;
  }

  /** Mint a token for an account as an operator: any scopes, no issuer, optional lifetime. */
  async mintFor(accountId: string, input: CreateTokenInput): Promise<CreateTokenResult> {
    const now = this.now();
    let expiresAt: number | null = null;
    if (input.expiresAfter !== undefined) {
      const lifetime = parseDuration(input.expiresAfter);
      if (lifetime === undefined) return { ok: false, reason: 'bad_duration' };
      expiresAt = now + lifetime;
    }
    return this.mint({ accountId, issuerId: null, name: input.name, scopes: [...new Set(input.scopes)], expiresAt, created: now });
  }

  /** One of the account's live (not revoked) tokens. */
  async find(accountId: string, tokenId: string): Promise<TokenRecord | undefined> {
    const record = await this.repository.findById(tokenId);
    return record && record.accountId === accountId && record.revokedAt === null ? record : undefined;
  }

  /** Disable or enable one of the account's tokens; false when it has no such live token. */
  async setDisabled(accountId: string, tokenId: string, disabled: boolean): Promise<boolean> {
    if (!(await this.find(accountId, tokenId))) return false;
    await this.repository.setDisabled(tokenId, disabled);
    this.forgetVerified();
    return true;
  }

  /** The full value of one of the account's live tokens, unsealed. */
  async reveal(accountId: string, tokenId: string): Promise<string | undefined> {
    if (!(await this.find(accountId, tokenId))) return undefined;
    const sealed = await this.repository.sealed(tokenId);
    return sealed && this.vault.open(sealed, tokenId);
  }

  /** Write the buffered last-used times; called on a timer and at shutdown. */
  async flushUses(): Promise<void> {
    if (this.pendingUses.size === 0) return;
    const uses = new Map(this.pendingUses);
    await this.repository.recordLastUsed(uses);
    // Uses seen while that was written stay for the next flush.
    for (const [id, at] of uses) if (this.pendingUses.get(id) === at) this.pendingUses.delete(id);
  }

  private problemWith(record: TokenRecord, now: number): 'revoked' | 'disabled' | 'expired' | undefined {
    if (record.revokedAt !== null) return 'revoked';
    if (record.disabled) return 'disabled';
    if (isExpired(record, now)) return 'expired';
    return undefined;
  }
}

function isExpired(record: TokenRecord, now: number): boolean {
  return record.expiresAt !== null && record.expiresAt <= now;
}
