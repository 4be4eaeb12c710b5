/** Small shared pieces: the row actions menu, messages, dates, a copy button. */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
}

export function ErrorMessage({ error }: { error: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

export interface MenuAction {
  label: string;
  onSelect: () => void;
}

/**
 * A row's actions menu (menu button pattern): Enter, Space or ArrowDown opens it, arrows move,
 * Escape closes and returns focus to the button.
 */
export function ActionsMenu({ label, actions }: { label: string; actions: MenuAction[] }) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const items = () => Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role=menuitem]') ?? []);

  useEffect(() => {
    if (!open) return;
    items()[0]?.focus();
    const close = (event: MouseEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== button.current) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const onKeyDown = (event: KeyboardEvent) => {
    const all = items();
    const at = all.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      all[(at + 1) % all.length]?.focus();
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      all[(at - 1 + all.length) % all.length]?.focus();
    }
  };

  return (
    <div class="menu">
      <button
        ref={button}
        type="button"
        class="secondary"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        onClick={() => setOpen(!open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        Actions ▾
      </button>
      {open && (
        <ul ref={menu} role="menu" aria-label={label} onKeyDown={onKeyDown}>
          {actions.map((action) => (
            <li role="none" key={action.label}>
              <button
                type="button"
                role="menuitem"
                onClick={() => {
                  setOpen(false);
                  action.onSelect();
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function CopyButton({ value, label }: { value: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      class="secondary"
      aria-label={label}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(value);
          setCopied(true);
        } catch {
          setCopied(false);
        }
      }}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-heading`;
  return (
    <section aria-labelledby={headingId} id={id}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

/**
 * A data table: the scrolling wrapper, labelled column headers (and a hidden one for the row
 * actions), the rows, and a row saying so when there are none.
 */
export function Table({
  columns,
  actions = false,
  caption,
  empty,
  children,
}: {
  columns: string[];
  /** A last column of row actions, labelled for screen readers only. */
  actions?: boolean;
  caption?: string;
  /** Shown in place of rows when there are none. */
  empty?: string | false;
  children: ComponentChildren;
}) {
  return (
    <div class="table-wrap">
      <table class={actions ? 'with-actions' : undefined}>
        {caption && <caption class="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column}>
                {column}
              </th>
            ))}
            {actions && (
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {children}
          {empty && (
            <tr>
              <td colSpan={columns.length + (actions ? 1 : 0)}>{empty}</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A set of checkboxes choosing some of `names` (allowed locations and images, token scopes). */
export function Checkboxes<T extends string>({
  legend,
  names,
  chosen,
  onChange,
}: {
  legend: string;
  names: readonly T[];
  chosen: T[];
  onChange: (names: T[]) => void;
}) {
  return (
    <fieldset>
      <legend>{legend}</legend>
      {names.length === 0 && <p class="muted">None in the fleet.</p>}
      {names.map((name) => (
        <label class="check" key={name}>
          <input
            type="checkbox"
            checked={chosen.includes(name)}
            onChange={(e) => onChange(e.currentTarget.checked ? [...chosen, name] : chosen.filter((n) => n !== name))}
          />
          {name}
        </label>
      ))}
    </fieldset>
  );
}
