/**
 * Shown where a referee action is needed but this browser has no referee token: paste it once
 * and it is kept for the table.
 */
import { useState, type FormEvent } from 'react';
import { useTable } from '../lib/useLiveTable';

/** Asks for the referee token. */
export function RefereeTokenForm() {
  const { rememberToken } = useTable();
  const [value, setValue] = useState('');
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const token = value.trim();
    if (token) rememberToken('referee', token);
  };
  return (
    <form className="row notice notice--warn" onSubmit={submit}>
      <label htmlFor="referee-token">Referee token</label>
      <input id="referee-token" value={value} onChange={(e) => setValue(e.target.value)} autoComplete="off" placeholder="paste the referee link’s token" />
      <button type="submit">Use it</button>
    </form>
  );
}
