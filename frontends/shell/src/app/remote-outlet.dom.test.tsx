import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type RemoteName, RemoteOutlet } from './remote-outlet.tsx';

afterEach(cleanup);

/** A loader that answers each remote with screens that say which remote they are. */
const loader = async (remote: RemoteName) => () => <p>{`${remote} screens`}</p>;

describe('RemoteOutlet', () => {
  it('shows the other remote’s screens when the route moves back to a remote already loaded', async () => {
    // As react-router renders it: the same component at the same place, another remote.
    const view = render(<RemoteOutlet remote="reports" base="reports" loader={loader} />);
    expect(await screen.findByText('reports screens')).toBeTruthy();
    view.rerender(<RemoteOutlet remote="masters" base="masters" loader={loader} />);
    expect(await screen.findByText('masters screens')).toBeTruthy();
    // Back to reports, loaded already: before, the outlet kept the masters' screens (a 404 there).
    view.rerender(<RemoteOutlet remote="reports" base="reports" loader={loader} />);
    expect(await screen.findByText('reports screens')).toBeTruthy();
    expect(screen.queryByText('masters screens')).toBeNull();
  });
});
