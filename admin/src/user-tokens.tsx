/** A user's API tokens in the admin panel: the list with its actions (reveal, disable, delete), and adding one. */
import { useState } from 'preact/hooks';
import { api, describeError, scopeGroups, type Scope, type Token, type TokenCreated } from './api';
import { Checkboxes, CopyButton, ErrorMessage, formatDate, Section, Table } from './components';

export function ApiTokens({ userId, operator, tokens, onChange }: { userId: string; operator: boolean; tokens: Token[]; onChange: () => Promise<void> }) {
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [created, setCreated] = useState<TokenCreated>();
  const [error, setError] = useState<string>();

  const act = async (call: () => Promise<{ error?: unknown }>) => {
    const { error } = await call();
    setError(error ? describeError(error) : undefined);
    await onChange();
  };
  const path = (tokenId: string) => ({ params: { path: { id: userId, tokenId } } });

  return (
    <Section title="API Tokens" id="api-tokens">
      <ErrorMessage error={error} />
      <Table columns={['Name', 'Value', 'Scopes', 'Status', 'Created', 'Expires', 'Last used']} actions empty={tokens.length === 0 && 'No tokens yet.'}>
        {tokens.map((token) => (
          <tr key={token.id} data-token-id={token.id}>
            <td>{token.name}</td>
            <td>
              <code class="token-value">{revealed[token.id] ?? token.token}</code>{' '}
              {revealed[token.id] ? (
                <CopyButton value={revealed[token.id]!} label={`Copy the value of ${token.name}`} />
              ) : (
                <button
                  type="button"
                  class="secondary"
                  aria-label={`Reveal the value of ${token.name}`}
                  onClick={async () => {
                    const { data, error } = await api.POST('/admin/api/user/{id}/token/{tokenId}/reveal', path(token.id));
                    if (error) return setError(describeError(error));
                    setRevealed({ ...revealed, [token.id]: data.token });
                    await onChange();
                  }}
                >
                  Reveal
                </button>
              )}
            </td>
            <td>{token.scopes.join(', ')}</td>
            <td>
              <span class={`badge ${token.status === 'active' ? 'on' : 'off'}`}>{token.status}</span>
            </td>
            <td>{formatDate(token.created)}</td>
            <td>{token.expires_at ? formatDate(token.expires_at) : 'never'}</td>
            <td>{formatDate(token.last_used)}</td>
            <td class="buttons">
              {token.status === 'disabled' ? (
                <button type="button" class="secondary" aria-label={`Enable ${token.name}`} onClick={() => act(() => api.PATCH('/admin/api/user/{id}/token/{tokenId}', { ...path(token.id), body: { disabled: false } }))}>
                  Enable
                </button>
              ) : (
                <button type="button" class="secondary" aria-label={`Disable ${token.name}`} onClick={() => act(() => api.PATCH('/admin/api/user/{id}/token/{tokenId}', { ...path(token.id), body: { disabled: true } }))}>
                  Disable
                </button>
              )}
              <button
                type="button"
                class="danger"
                aria-label={`Delete ${token.name}`}
                onClick={() => {
                  if (window.confirm(`Delete token ${token.name}? It stops working for good.`)) void act(() => api.DELETE('/admin/api/user/{id}/token/{tokenId}', path(token.id)));
                }}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}      </Table>
      {created && (
        <div class="notice" role="status" aria-live="polite">
          <p>
            Token <strong>{created.name}</strong> created. Copy its value now: this is the only time it is shown in full without a
            (logged) reveal.
          </p>
          <p>
            <code id="new-token-value" class="token-value">
              {created.token}
            </code>{' '}
            <CopyButton value={created.token} label="Copy the new token" />{' '}
            <button type="button" class="secondary" onClick={() => setCreated(undefined)}>
              Done
            </button>
          </p>
        </div>
      )}
      <AddToken
        operator={operator}
        userId={userId}
        onCreated={async (token) => {
          setCreated(token);
          await onChange();
        }}
      />
    </Section>
  );
}

function AddToken({ userId, operator, onCreated }: { userId: string; operator: boolean; onCreated: (token: TokenCreated) => Promise<void> }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([]);
  const [expiry, setExpiry] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      class="stack add-token"
      aria-labelledby="add-token-heading"
      onSubmit={async (event) => {
        event.preventDefault();
        if (scopes.length === 0) return setError('Choose at least one scope.');
        const { data, error } = await api.POST('/admin/api/user/{id}/token', {
          params: { path: { id: userId } },
          body: { name, scopes, ...(expiry ? { expires_after: expiry } : {}) },
        });
        if (error) return setError(describeError(error));
        setError(undefined);
        setName('');
        setScopes([]);
        setExpiry('');
        await onCreated(data);
      }}
    >
      <h3 id="add-token-heading">Add token</h3>
      <label for="token-name">Token name</label>
      <input id="token-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <div class="scope-groups">
        {scopeGroups.filter((group) => operator || !group.operatorOnly).map((group) => (
          <Checkboxes key={group.label} legend={group.label} names={group.scopes} chosen={scopes} onChange={setScopes} />
        ))}
      </div>
      <label for="token-expiry">Expires after</label>
      <select id="token-expiry" value={expiry} onChange={(e) => setExpiry(e.currentTarget.value)}>
        <option value="">Never</option>
        <option value="30m">30 minutes</option>
        <option value="1h">1 hour</option>
        <option value="24h">1 day</option>
        <option value="168h">7 days</option>
        <option value="720h">30 days</option>
      </select>
      <ErrorMessage error={error} />
      <div>
        <button type="submit">Add token</button>
      </div>
    </form>
  );
}
