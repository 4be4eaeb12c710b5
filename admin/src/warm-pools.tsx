/** Warm pools on the Locations page: each pool's size and fill, and a size to set over the fleet file's. */
import { useEffect, useState } from 'preact/hooks';
import { api, describeError, type WarmPool } from './api';
import { ErrorMessage, Table } from './components';

export function WarmPools() {
  const [pools, setPools] = useState<WarmPool[]>([]);
  const [sizes, setSizes] = useState<Record<string, string>>({});
  const [error, setError] = useState<string>();
  const name = (pool: WarmPool) => `${pool.location}/${pool.image}:${pool.tag}`;
  const load = async () => {
    const { data, error } = await api.GET('/admin/api/pool');
    if (error) return setError(describeError(error));
    setPools(data.pools);
  };
  const size = async (pool: WarmPool) => {
    const warm = Number(sizes[name(pool)] ?? pool.warm);
    const { error } = await api.PUT('/admin/api/pool', { body: { location: pool.location, image: pool.image, tag: pool.tag, warm } });
    setError(error ? describeError(error) : undefined);
    await load();
  };
  useEffect(() => void load(), []);
  return (
    <section aria-labelledby="warm-pools" class="card">
      <h2 id="warm-pools">Warm pools</h2>
      <p class="muted">Game servers started ahead of need: a start with the pool's env and args takes one and is running at once.</p>
      <ErrorMessage error={error} />
      <Table columns={['Pool', 'Ready', 'Starting', 'Size', 'Set by']} actions empty={pools.length === 0 && 'No warm pools (fleet file "pools").'}>
        {pools.map((pool) => (
          <tr key={name(pool)}>
            <td>
              <code>{name(pool)}</code>
            </td>
            <td>{pool.ready}</td>
            <td>{pool.starting}</td>
            <td>
              <input
                type="number"
                min={0}
                max={1000}
                aria-label={`Size of ${name(pool)}`}
                value={sizes[name(pool)] ?? String(pool.warm)}
                onInput={(e) => setSizes({ ...sizes, [name(pool)]: e.currentTarget.value })}
              />
            </td>
            <td>{pool.source === 'panel' ? 'panel' : 'fleet file'}</td>
            <td>
              <button type="button" class="secondary" aria-label={`Set the size of ${name(pool)}`} onClick={() => size(pool)}>
                Set
              </button>
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
