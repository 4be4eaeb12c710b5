/**
 * What operators do in the admin panel to accounts and their tokens: onboard, search, update,
 * disable; mint, reveal, disable, enable and delete tokens. Every token change, every reveal and
 * every account change is written to the audit log here, so no caller can forget it.
 */
import type { FleetConfig } from '../config/fleet-types.js';
import type { AccessGrants, AccountRecord, AccountRepository } from './ports/accounts.js';
import type { AuditAction, AuditEntry, AuditLog } from './ports/audit.js';
import { newAccountId } from './onboarding.js';
import { scopesBeyondAccount, type Scope } from './scopes.js';
import type { QuotaUsage } from './quota.js';
import type { CreateTokenInput, CreateTokenResult, Tokens, TokenView } from './tokens.js';

export interface UserView extends AccountRecord {
  usage: QuotaUsage;
  locations: string[];
  images: string[];
}

export interface NewUser {
  name: string;
  email: string;
  quotaMinutes: number;
  locations?: string[];
  images?: string[];
}

export type UserChanges = Partial<Pick<AccountRecord, 'name' | 'quotaMinutes' | 'disabled' | 'maxSessions'>> & {
  locations?: string[];
  images?: string[];
};

export type UserWriteResult =
  | { ok: true; user: UserView }
  | { ok: false; reason: 'not_found' | 'email_taken' }
  | { ok: false; reason: 'unknown_grant'; field: 'locations' | 'images'; name: string };

export interface AdminDependencies {
  accounts: AccountRepository;
  grants: AccessGrants;
  tokens: Tokens;
  usage(accountId: string): Promise<QuotaUsage>;
  audit: AuditLog;
  fleet: Pick<FleetConfig, 'locations' | 'images'>;
  now: () => number;
}

const AUDIT_LIMIT = 500;
/**
 * Entries the store keeps per account, newest first (the panel shows the newest AUDIT_LIMIT). A
 * token with `token:write` adds two per mint and revoke: without a bound, a loop of them grew the
 * store forever. Every entry is also written to the service log (service.ts), which keeps them all.
 */
export const AUDIT_KEPT_PER_ACCOUNT = 1_000;

export class Admin {
  constructor(private readonly deps: AdminDependencies) {}

  async listUsers(options: { q?: string; limit: number; after?: { created: number; id: string } }): Promise<UserView[]> {
    return Promise.all((await this.deps.accounts.search(options)).map((account) => this.view(account)));
  }

  async getUser(id: string): Promise<UserView | undefined> {
    const account = await this.deps.accounts.findById(id);
    return account && this.view(account);
  }

  async createUser(actor: string, input: NewUser): Promise<UserWriteResult> {
    const unknown = this.unknownGrant(input);
    if (unknown) return unknown;
    if (await this.deps.accounts.findByEmail(input.email)) return { ok: false, reason: 'email_taken' };
    const id = newAccountId();
    await this.deps.accounts.insert({
      id,
      name: input.name,
      email: input.email,
      quotaMinutes: input.quotaMinutes,
      usedSeconds: 0,
      operator: false,
      disabled: false,
      created: this.deps.now(),
    });
    await this.replaceGrants(id, input);
    await this.record(actor, id, 'user_created', null, `${input.name} <${input.email}>, ${input.quotaMinutes} min`);
    return { ok: true, user: (await this.getUser(id))! };
  }

  async updateUser(actor: string, id: string, changes: UserChanges): Promise<UserWriteResult> {
    const before = await this.deps.accounts.findById(id);
    if (!before) return { ok: false, reason: 'not_found' };
    const unknown = this.unknownGrant(changes);
    if (unknown) return unknown;
    const { locations, images, ...fields } = changes;
    await this.deps.accounts.update(id, fields);
    await this.replaceGrants(id, { locations, images });
    if (fields.disabled !== undefined && fields.disabled !== before.disabled) {
      // Every token of the account changes verdict.
      this.deps.tokens.forgetVerified();
      await this.record(actor, id, fields.disabled ? 'user_disabled' : 'user_enabled', null, before.name);
    }
    const described = Object.entries({ ...fields, locations, images })
      .filter(([key, value]) => value !== undefined && key !== 'disabled')
      .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join(' ') || '(none)' : String(value)}`);
    if (described.length > 0) await this.record(actor, id, 'user_updated', null, described.join(', '));
    return { ok: true, user: (await this.getUser(id))! };
  }

  async listUserTokens(accountId: string): Promise<TokenView[] | undefined> {
    return (await this.deps.accounts.findById(accountId)) ? this.deps.tokens.list(accountId) : undefined;
  }

  async createUserToken(
    actor: string,
    accountId: string,
    input: CreateTokenInput,
  ): Promise<CreateTokenResult | { ok: false; reason: 'not_found' } | { ok: false; reason: 'operator_only'; scopes: Scope[] }> {
    const account = await this.deps.accounts.findById(accountId);
    if (!account) return { ok: false, reason: 'not_found' };
    const beyond = scopesBeyondAccount(account.operator, input.scopes);
    if (beyond.length > 0) return { ok: false, reason: 'operator_only', scopes: beyond };
    const result = await this.deps.tokens.mintFor(accountId, input);
    if (result.ok) {
      const expires = result.record.expiresAt === null ? 'never expires' : `expires ${new Date(result.record.expiresAt).toISOString()}`;
      await this.record(actor, accountId, 'token_created', result.record.id, `${input.name}: ${result.record.scopes.join(' ')}, ${expires}`);
    }
    return result;
  }

  async revealUserToken(actor: string, accountId: string, tokenId: string): Promise<string | undefined> {
    const token = await this.deps.tokens.find(accountId, tokenId);
    const value = token && (await this.deps.tokens.reveal(accountId, tokenId));
    if (token && value !== undefined) await this.record(actor, accountId, 'token_revealed', tokenId, token.name);
    return value;
  }

  async updateUserToken(actor: string, accountId: string, tokenId: string, disabled: boolean): Promise<TokenView | undefined> {
    if (!(await this.deps.tokens.setDisabled(accountId, tokenId, disabled))) return undefined;
    const record = (await this.deps.tokens.find(accountId, tokenId))!;
    await this.record(actor, accountId, disabled ? 'token_disabled' : 'token_enabled', tokenId, record.name);
    return this.deps.tokens.view(record);
  }

  async deleteUserToken(actor: string, accountId: string, tokenId: string): Promise<boolean> {
    const token = await this.deps.tokens.find(accountId, tokenId);
    if (!token || !(await this.deps.tokens.revoke(accountId, tokenId))) return false;
    await this.record(actor, accountId, 'token_deleted', tokenId, token.name);
    return true;
  }

  async listUserAudit(accountId: string): Promise<AuditEntry[] | undefined> {
    return (await this.deps.accounts.findById(accountId)) ? this.deps.audit.list(accountId, AUDIT_LIMIT) : undefined;
  }

  private async view(account: AccountRecord): Promise<UserView> {
    return { ...account, usage: await this.deps.usage(account.id), ...(await this.deps.grants.list(account.id)) };
  }

  private unknownGrant(input: { locations?: string[] | undefined; images?: string[] | undefined }): UserWriteResult | undefined {
    const location = input.locations?.find((name) => !this.deps.fleet.locations.some((l) => l.id === name));
    if (location !== undefined) return { ok: false, reason: 'unknown_grant', field: 'locations', name: location };
    const image = input.images?.find((name) => !this.deps.fleet.images.some((i) => i.name === name));
    if (image !== undefined) return { ok: false, reason: 'unknown_grant', field: 'images', name: image };
    return undefined;
  }

  private async replaceGrants(id: string, input: { locations?: string[] | undefined; images?: string[] | undefined }): Promise<void> {
    if (input.locations) await this.deps.grants.replace(id, 'location', input.locations);
    if (input.images) await this.deps.grants.replace(id, 'image', input.images);
  }

  private record(actor: string, accountId: string, action: AuditAction, tokenId: string | null, details: string): Promise<void> {
    return this.deps.audit.record({ accountId, at: this.deps.now(), actor, action, tokenId, details }, AUDIT_KEPT_PER_ACCOUNT);
  }
}
