import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FormDialog } from './dialogs.tsx';

function Harness(props: { onSubmit(): void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open
      </button>
      <FormDialog open={open} title="Voucher" onClose={() => setOpen(false)} onSubmit={props.onSubmit}>
        <input aria-label="First" />
        <input aria-label="Mode A" type="radio" name="mode" defaultChecked />
        <input aria-label="Mode B" type="radio" name="mode" />
        <input aria-label="Read only" readOnly />
        <select aria-label="Choice">
          <option>a</option>
        </select>
        <input aria-label="Last" />
      </FormDialog>
    </>
  );
}

describe('keyboard entry in a form dialog', () => {
  afterEach(cleanup);

  it('Enter moves to the next field (one stop per radio group, read-only skipped) and saves from the last', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    fireEvent.click(screen.getByText('Open'));
    const first = await screen.findByLabelText('First');
    first.focus();
    fireEvent.keyDown(first, { key: 'Enter' });
    expect(document.activeElement).toBe(screen.getByLabelText('Mode A'));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(document.activeElement).toBe(screen.getByLabelText('Choice'));
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(document.activeElement).toBe(screen.getByLabelText('Last'));
    expect(onSubmit).not.toHaveBeenCalled();
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' });
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('Ctrl+S and Cmd+S save from any field; an open list keeps its Enter', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    fireEvent.click(screen.getByText('Open'));
    const first = await screen.findByLabelText('First');
    fireEvent.keyDown(first, { key: 's', ctrlKey: true });
    fireEvent.keyDown(first, { key: 'S', metaKey: true });
    expect(onSubmit).toHaveBeenCalledTimes(2);
    first.setAttribute('aria-expanded', 'true');
    first.focus();
    fireEvent.keyDown(first, { key: 'Enter' });
    expect(document.activeElement).toBe(first);
  });

  it('gives focus back to the button that opened the dialog when it closes', async () => {
    render(<Harness onSubmit={() => {}} />);
    const opener = screen.getByText('Open');
    opener.focus();
    fireEvent.click(opener);
    const first = await screen.findByLabelText('First');
    first.focus();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(document.activeElement).toBe(opener));
  });
});
