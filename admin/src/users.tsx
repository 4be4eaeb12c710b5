/** Users (accounts): the list, onboarding, and the Update User page (its API Tokens: user-tokens.tsx). */
import { useEffect, useState } from 'preact/hooks';
import { api, describeError, type AuditEntry, type Token, type User } from './api';
import { ActionsMenu, Checkboxes, ErrorMessage, formatDate, Section, Table } from './components';
import { linkProps, navigate } from './router';
import { ApiTokens } from './user-tokens';

const PAGE = 20;

export function UsersPage() {
  const [q, setQ] = useState('');
  const [users, setUsers] = useState<User[]>([]);
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string>();

  const load = async (query: string, cursor: string | undefined) => {
    const { data, error } = await api.GET('/admin/api/user', {
      params: { query: { limit: PAGE, ...(query ? { q: query } : {}), ...(cursor ? { cursor } : {}) } },
    });
    if (error) return setError(describeError(error));
    setError(undefined);
    setUsers(data.users);
    setNext(data.next_cursor);
  };
  useEffect(() => void load('', undefined), []);

  const disable = async (user: User) => {
    const { error } = await api.PATCH('/admin/api/user/{id}', { params: { path: { id: user.id } }, body: { disabled: !user.disabled } });
    if (error) return setError(describeError(error));
    await load(q, cursors[cursors.length - 1]);
  };

  return (
    <>
      <div class="title-row">
        <h1>Users</h1>
        <a class="button" {...linkProps('/users/new')}>
          Create user
        </a>
      </div>
      <form
        role="search"
        class="inline"
        onSubmit={(event) => {
          event.preventDefault();
          setCursors([undefined]);
          void load(q, undefined);
        }}
      >
        <label for="user-search">Search</label>
        <input id="user-search" type="search" value={q} placeholder="name, email or id" onInput={(e) => setQ(e.currentTarget.value)} />
        <button type="submit">Search</button>
      </form>
      <ErrorMessage error={error} />
      <Table columns={['Name', 'Email', 'Quota used', 'Status', 'Created']} actions caption="Accounts" empty={users.length === 0 && 'No accounts match.'}>
        {users.map((user) => (
          <tr key={user.id}>
            <td>
              <a {...linkProps(`/users/${user.id}`)}>{user.name}</a>
              <div class="muted">{user.id}</div>
            </td>
            <td>{user.email ?? '—'}</td>
            <td>
              {user.quota.used.toFixed(1)} / {user.quota.total} min
            </td>
            <td>{user.disabled ? <span class="badge off">disabled</span> : <span class="badge on">active</span>}</td>
            <td>{formatDate(user.created)}</td>
            <td>
              <ActionsMenu
                label={`Actions for ${user.name}`}
                actions={[
                  { label: 'Edit', onSelect: () => navigate(`/users/${user.id}`) },
                  { label: user.disabled ? 'Enable' : 'Disable', onSelect: () => void disable(user) },
                ]}
              />
            </td>
          </tr>
        ))}      </Table>
      <nav class="pager" aria-label="Pages">
        <button
          type="button"
          class="secondary"
          disabled={cursors.length < 2}
          onClick={() => {
            const previous = cursors.slice(0, -1);
            setCursors(previous);
            void load(q, previous[previous.length - 1]);
          }}
        >
          Previous
        </button>
        <button
          type="button"
          class="secondary"
          disabled={next === null}
          onClick={() => {
            setCursors([...cursors, next!]);
            void load(q, next!);
          }}
        >
          Next
        </button>
      </nav>
    </>
  );
}

/** Locations and images from the fleet, for the access checkboxes. */
function useFleetNames() {
  const [names, setNames] = useState<{ locations: string[]; images: string[] }>({ locations: [], images: [] });
  useEffect(() => {
    void Promise.all([api.GET('/admin/api/location'), api.GET('/admin/api/image')]).then(([locations, images]) =>
      setNames({
        locations: locations.data?.locations.map((l) => l.id) ?? [],
        images: images.data?.images.map((i) => i.name) ?? [],
      }),
    );
  }, []);
  return names;
}

export function CreateUserPage() {
  const fleet = useFleetNames();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [quota, setQuota] = useState('600');
  const [locations, setLocations] = useState<string[]>([]);
  const [images, setImages] = useState<string[]>([]);
  const [error, setError] = useState<string>();

  return (
    <>
      <h1>Create user</h1>
      <form
        class="stack"
        onSubmit={async (event) => {
          event.preventDefault();
          const { data, error } = await api.POST('/admin/api/user', {
            body: { name, email, quota_minutes: Number(quota), locations, images },
          });
          if (error) return setError(describeError(error));
          navigate(`/users/${data.id}`);
        }}
      >
        <label for="new-name">Name</label>
        <input id="new-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="new-email">Email</label>
        <input id="new-email" type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        <label for="new-quota">Quota (minutes)</label>
        <input id="new-quota" type="number" min={0} required value={quota} onInput={(e) => setQuota(e.currentTarget.value)} />
        <p class="muted">Public locations and images are always allowed; tick private ones to allow them too.</p>
        <Checkboxes legend="Allowed locations" names={fleet.locations} chosen={locations} onChange={setLocations} />
        <Checkboxes legend="Allowed images" names={fleet.images} chosen={images} onChange={setImages} />
        <ErrorMessage error={error} />
        <div>
          <button type="submit">Create user</button>
        </div>
      </form>
    </>
  );
}

export function UpdateUserPage({ id }: { id: string }) {
  const [user, setUser] = useState<User>();
  const [tokens, setTokens] = useState<Token[]>([]);
  const [audit, setAudit] = useState<AuditEntry[]>([]);
  const [error, setError] = useState<string>();

  const loadTokens = async () => {
    const [t, a] = await Promise.all([
      api.GET('/admin/api/user/{id}/token', { params: { path: { id } } }),
      api.GET('/admin/api/user/{id}/audit', { params: { path: { id } } }),
    ]);
    if (t.data) setTokens(t.data.tokens);
    if (a.data) setAudit(a.data.entries);
  };
  const load = async () => {
    const { data, error } = await api.GET('/admin/api/user/{id}', { params: { path: { id } } });
    if (error) return setError(describeError(error));
    setUser(data);
    await loadTokens();
  };
  useEffect(() => void load(), [id]);

  if (!user) return error ? <ErrorMessage error={error} /> : <p>Loading…</p>;
  return (
    <>
      <p>
        <a {...linkProps('/users')}>← Users</a>
      </p>
      <h1>Update User</h1>
      <ErrorMessage error={error} />
      <Profile user={user} onSaved={(u) => (setUser(u), void loadTokens())} />
      <ApiTokens userId={id} operator={user.operator} tokens={tokens} onChange={loadTokens} />
      <Section title="Audit log" id="audit">
        <Table columns={['When', 'Who', 'What', 'Details']} empty={audit.length === 0 && 'Nothing yet.'}>
          {audit.map((entry) => (
            <tr key={entry.id}>
              <td>{formatDate(entry.at)}</td>
              <td>{entry.actor}</td>
              <td>{entry.action.replace('_', ' ')}</td>
              <td>{entry.details}</td>
            </tr>
          ))}        </Table>
      </Section>
    </>
  );
}

function Profile({ user, onSaved }: { user: User; onSaved: (user: User) => void }) {
  const [name, setName] = useState(user.name);
  const [quota, setQuota] = useState(String(user.quota.total));
  const [maxSessions, setMaxSessions] = useState(user.max_sessions == null ? '' : String(user.max_sessions));
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState(false);
  const save = async (body: { name?: string; quota_minutes?: number; max_sessions?: number | null; disabled?: boolean }) => {
    const { data, error } = await api.PATCH('/admin/api/user/{id}', { params: { path: { id: user.id } }, body });
    if (error) return setError(describeError(error));
    setError(undefined);
    setSaved(true);
    onSaved(data);
  };
  return (
    <Section title="Profile and quota" id="profile">
      <dl class="facts">
        <dt>Account id</dt>
        <dd>{user.id}</dd>
        <dt>Email</dt>
        <dd>{user.email ?? '—'}</dd>
        <dt>Status</dt>
        <dd>{user.disabled ? 'disabled' : 'active'}</dd>
        <dt>Usage</dt>
        <dd>
          {user.quota.used.toFixed(1)} of {user.quota.total} minutes used, {user.quota.remaining.toFixed(1)} left
          <progress max={user.quota.total || 1} value={Math.min(user.quota.used, user.quota.total)} aria-label="Quota used" />
        </dd>
        <dt>Live sessions at once</dt>
        <dd>{user.max_sessions == null ? 'no cap' : `at most ${user.max_sessions}`}</dd>
        <dt>Private locations</dt>
        <dd>{user.locations.join(', ') || 'none'}</dd>
        <dt>Private images</dt>
        <dd>{user.images.join(', ') || 'none'}</dd>
      </dl>
      <form
        class="stack"
        onSubmit={(event) => {
          event.preventDefault();
          void save({ name, quota_minutes: Number(quota), max_sessions: maxSessions.trim() === '' ? null : Number(maxSessions) });
        }}
      >
        <label for="user-name">Name</label>
        <input id="user-name" required maxLength={100} value={name} onInput={(e) => (setName(e.currentTarget.value), setSaved(false))} />
        <label for="user-quota">Quota (minutes)</label>
        <input id="user-quota" type="number" min={0} required value={quota} onInput={(e) => (setQuota(e.currentTarget.value), setSaved(false))} />
        <label for="user-max-sessions">Most live sessions at once (empty: no cap)</label>
        <input
          id="user-max-sessions"
          type="number"
          min={0}
          value={maxSessions}
          onInput={(e) => (setMaxSessions(e.currentTarget.value), setSaved(false))}
        />
        <ErrorMessage error={error} />
        <div class="buttons">
          <button type="submit">Save</button>
          <button type="button" class="secondary" onClick={() => void save({ disabled: !user.disabled })}>
            {user.disabled ? 'Enable account' : 'Disable account'}
          </button>
          {saved && <span role="status">Saved.</span>}
        </div>
      </form>
    </Section>
  );
}
