/** Locations (nodes: capacity, health, maintenance locks, drains, their sessions), Sessions (every account's) and Images. */
import { useEffect, useState } from 'preact/hooks';
import { api, describeError, type AccountSessionList, type ImageCatalog, type Location, type SessionStatus } from './api';

type Session = AccountSessionList['sessions'][number];
import { ErrorMessage, formatDate, Table } from './components';
import { WarmPools } from './warm-pools';

export function LocationsPage() {
  const [locations, setLocations] = useState<Location[]>([]);
  const [live, setLive] = useState<Session[]>([]);
  const [error, setError] = useState<string>();
  const load = async () => {
    const [fleet, sessions] = await Promise.all([api.GET('/admin/api/location'), api.GET('/admin/api/session', { params: { query: { limit: 500 } } })]);
    if (fleet.error) return setError(describeError(fleet.error));
    setLocations(fleet.data.locations);
    setLive(sessions.data?.sessions ?? []);
  };
  const patch = async (id: string, body: { locked?: boolean; drain?: boolean }) => {
    const { error } = await api.PATCH('/admin/api/node/{id}', { params: { path: { id } }, body });
    setError(error ? describeError(error) : undefined);
    await load();
  };
  useEffect(() => void load(), []);
  return (
    <>
      <h1>Locations</h1>
      <ErrorMessage error={error} />
      {locations.map((location) => (
        <section key={location.id} aria-labelledby={`loc-${location.id}`} class="card">
          <h2 id={`loc-${location.id}`}>
            {location.id} <span class={`badge ${location.status === 'available' ? 'on' : 'off'}`}>{location.status}</span>
          </h2>
          <p class="muted">
            {location.capacity.used} of {location.capacity.total} slots in use, {location.capacity.free} free · {location.ips.join(', ')}
          </p>
          <Table columns={['Node', 'Host', 'In use', 'Health', 'State', 'Sessions']} actions>
            {location.nodes.map((node) => (
              <tr key={node.id}>
                <td>{node.id}</td>
                <td>{node.host}</td>
                <td>
                  {node.used} / {node.capacity}
                  <progress max={node.capacity || 1} value={node.used} aria-label={`Capacity in use on ${node.id}`} />
                </td>
                <td>
                  <span class={`badge ${node.health === 'up' ? 'on' : 'off'}`}>{node.health}</span>
                  {node.lastSeen !== null && node.lastSeen !== undefined && node.health !== 'up' && <span class="muted"> last seen {formatDate(new Date(node.lastSeen).toISOString())}</span>}
                </td>
                <td>
                  {node.locked ? <span class="badge off">locked</span> : <span class="badge on">open</span>}
                  {node.drain !== 'none' && <span class="badge off">{node.drain}</span>}
                </td>
                <td>
                  {live
                    .filter((s) => s.location === location.id && s.host === node.host)
                    .map((s) => `${s.id} (${s.status})`)
                    .join(', ') || <span class="muted">none</span>}
                </td>
                <td>
                  <button type="button" class="secondary" aria-label={`${node.locked ? 'Unlock' : 'Lock'} ${node.id}`} onClick={() => patch(node.id, { locked: !node.locked })}>
                    {node.locked ? 'Unlock' : 'Lock for maintenance'}
                  </button>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`${node.drain === 'none' ? 'Drain' : 'Stop draining'} ${node.id}`}
                    onClick={() => patch(node.id, { drain: node.drain === 'none' })}
                  >
                    {node.drain === 'none' ? 'Drain' : 'Stop draining'}
                  </button>
                </td>
              </tr>
            ))}          </Table>
        </section>
      ))}
      <WarmPools />
    </>
  );
}

const STATUSES: SessionStatus[] = ['created', 'running', 'restarting', 'draining', 'shuttingdown', 'server_unreachable', 'exited', 'dead'];

export function SessionsPage() {
  const [filters, setFilters] = useState({ account: '', location: '', image: '', status: '', all: false });
  const [sessions, setSessions] = useState<Session[]>([]);
  const [logs, setLogs] = useState<{ id: string; text: string }>();
  const [error, setError] = useState<string>();
  const load = async () => {
    const query = {
      all: filters.all,
      ...(filters.account ? { account: filters.account } : {}),
      ...(filters.location ? { location: filters.location } : {}),
      ...(filters.image ? { image: filters.image } : {}),
      ...(filters.status ? { status: filters.status as SessionStatus } : {}),
      limit: 100,
    };
    const { data, error } = await api.GET('/admin/api/session', { params: { query } });
    if (error) return setError(describeError(error));
    setError(undefined);
    setSessions(data.sessions);
  };
  useEffect(() => void load(), []);
  const field = (key: 'account' | 'location' | 'image', label: string) => (
    <div>
      <label for={`filter-${key}`}>{label}</label>
      <input id={`filter-${key}`} value={filters[key]} onInput={(e) => setFilters({ ...filters, [key]: e.currentTarget.value })} />
    </div>
  );
  return (
    <>
      <h1>Sessions</h1>
      <form
        class="filters"
        onSubmit={(event) => {
          event.preventDefault();
          void load();
        }}
      >
        {field('account', 'Account')}
        {field('location', 'Location')}
        {field('image', 'Image')}
        <div>
          <label for="filter-status">State</label>
          <select id="filter-status" value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.currentTarget.value })}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <label class="check">
          <input type="checkbox" checked={filters.all} onChange={(e) => setFilters({ ...filters, all: e.currentTarget.checked })} />
          Include ended
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorMessage error={error} />
      <Table columns={['Session', 'Account', 'Image', 'Location', 'State', 'End reason', 'Ports', 'Created']} actions empty={sessions.length === 0 && 'No sessions match.'}>
        {sessions.map((session) => (
          <tr key={session.id}>
            <td>
              <code>{session.id}</code>
            </td>
            <td>
              <code>{session.account}</code>
            </td>
            <td>
              {session.image}:{session.tag}
            </td>
            <td>{session.location}</td>
            <td>{session.status}</td>
            <td>{session.end_reason ?? '-'}</td>
            <td>{session.ports.map((p) => `${session.host}:${p.host}/${p.type}`).join(', ')}</td>
            <td>{formatDate(new Date(session.created).toISOString())}</td>
            <td class="buttons">
              <button
                type="button"
                class="secondary"
                aria-label={`Logs of ${session.id}`}
                onClick={async () => {
                  const { data, error } = await api.GET('/admin/api/session/{id}/logs', { params: { path: { id: session.id }, query: { account: session.account } }, parseAs: 'text' });
                  if (error) return setError(describeError(error));
                  setLogs({ id: session.id, text: data });
                }}
              >
                Logs
              </button>
              {session.status !== 'exited' && session.status !== 'dead' && (
                <button
                  type="button"
                  class="danger"
                  aria-label={`Stop ${session.id}`}
                  onClick={async () => {
                    const { error } = await api.DELETE('/admin/api/session/{id}', { params: { path: { id: session.id }, query: { account: session.account } } });
                    setError(error ? describeError(error) : undefined);
                    await load();
                  }}
                >
                  Stop
                </button>
              )}
            </td>
          </tr>
        ))}      </Table>
      {logs && (
        <section aria-labelledby="logs-heading" class="card">
          <h2 id="logs-heading">Logs of {logs.id} (tail)</h2>
          <pre class="logs">{logs.text || '(no output)'}</pre>
        </section>
      )}
    </>
  );
}

export function ImagesPage() {
  const [catalog, setCatalog] = useState<ImageCatalog['images']>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    void api.GET('/admin/api/image').then(({ data, error }) => (error ? setError(describeError(error)) : setCatalog(data.images)));
  }, []);
  return (
    <>
      <h1>Images</h1>
      <ErrorMessage error={error} />
      <Table columns={['Image', 'Access', 'Tags']}>
        {catalog.map((image) => (
          <tr key={image.name}>
            <td>
              {image.name} <span class="muted">(default {image.default_tag})</span>
            </td>
            <td>{image.public ? 'public' : `private: ${image.accounts.join(', ') || 'no accounts'}`}</td>
            <td>
              <ul class="plain">
                {image.tags.map((tag) => (
                  <li key={`${tag.name}-${tag.account}`}>
                    <code>{tag.name}</code> {tag.source === 'registry' ? `pushed for ${tag.account} ${formatDate(tag.registered)}` : 'fleet file'}
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}      </Table>
    </>
  );
}
