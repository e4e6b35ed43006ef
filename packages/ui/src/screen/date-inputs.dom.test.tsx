import { businessDate } from '@bahi/contracts';
import { FluentProvider, webLightTheme } from '@fluentui/react-components';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { DateField } from '../form/fields.tsx';
import { FormProvider, useSchemaForm } from '../form/index.ts';
import { DateFilter } from './list-controls.tsx';
import { MomentInput } from './moment-input.tsx';

const inFluent = (ui: React.ReactNode) => render(<FluentProvider theme={webLightTheme}>{ui}</FluentProvider>);

const type = (box: HTMLElement, text: string) => {
  fireEvent.focus(box);
  fireEvent.change(box, { target: { value: text } });
};

describe('a date box outside a form (a list filter)', () => {
  afterEach(cleanup);

  it('keeps a typed day that does not exist, says why on the field, and changes nothing', () => {
    const onChange = vi.fn();
    inFluent(<DateFilter label="Start Date" value="2026-11-10" onChange={onChange} />);
    const box = screen.getByLabelText('Start Date') as HTMLInputElement;
    expect(box.value).toBe('10 Nov 2026');
    type(box, '31/02/2026');
    fireEvent.blur(box);
    expect(box.value).toBe('31/02/2026');
    expect(screen.getByText('31/02/2026 is not a date: Feb 2026 has 28 days.')).toBeTruthy();
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('reads each documented form on Enter, shows it in the app’s format and clears the message', () => {
    const onChange = vi.fn();
    const onEnter = vi.fn();
    inFluent(<DateFilter label="Start Date" value="" onChange={onChange} onEnter={onEnter} />);
    const box = screen.getByLabelText('Start Date') as HTMLInputElement;
    type(box, 'soon');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onEnter).toHaveBeenLastCalledWith(null);
    expect(
      screen.getByText(/^soon is not a date: type it as 25\/11\/2026, 25 Nov 2026 or 2026-11-25\.$/),
    ).toBeTruthy();
    for (const typed of ['25/11/2026', '25 Nov 2026', '2026-11-25', '25-11-26']) {
      type(box, typed);
      fireEvent.keyDown(box, { key: 'Enter' });
      expect(onChange).toHaveBeenLastCalledWith('2026-11-25');
      expect(onEnter).toHaveBeenLastCalledWith('2026-11-25');
      expect(box.value).toBe('25 Nov 2026');
    }
    expect(screen.queryByText(/is not a date/)).toBeNull();
    expect(box.getAttribute('aria-invalid')).toBeNull();
  });
});

function VoucherForm(props: { save(values: { day: string }): void }) {
  const form = useSchemaForm(z.object({ day: businessDate('Date') }), { day: '2026-11-20' });
  return (
    <FluentProvider theme={webLightTheme}>
      <FormProvider {...form}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void form.submit(async (values) => props.save(values))();
          }}
        >
          <DateField name="day" label="Date" required />
          <button type="submit">Save</button>
        </form>
      </FormProvider>
    </FluentProvider>
  );
}

describe('a date field of a form', () => {
  afterEach(cleanup);

  it('keeps 31/02/2026 with its message and does not submit; the day fixed, it saves the ISO day', async () => {
    const save = vi.fn();
    render(<VoucherForm save={save} />);
    const box = screen.getByLabelText(/^Date/) as HTMLInputElement;
    expect(box.value).toBe('20 Nov 2026');
    type(box, '31/02/2026');
    fireEvent.blur(box);
    await screen.findByText('31/02/2026 is not a date: Feb 2026 has 28 days.');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(box.getAttribute('aria-invalid')).toBe('true'));
    expect(box.value).toBe('31/02/2026');
    expect(screen.getByText('31/02/2026 is not a date: Feb 2026 has 28 days.')).toBeTruthy();
    expect(save).not.toHaveBeenCalled();

    type(box, '28/02/2026');
    fireEvent.blur(box);
    await waitFor(() => expect(screen.queryByText(/is not a date/)).toBeNull());
    expect(box.value).toBe('28 Feb 2026');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(save).toHaveBeenCalledWith({ day: '2026-02-28' }));
  });
});

describe('a moment box', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Kolkata';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });
  afterEach(cleanup);

  it('takes a day and a 24-hour time on Enter, as the ISO instant, and shows it in the app’s format', () => {
    const onChange = vi.fn();
    const onEnter = vi.fn();
    const onProblem = vi.fn();
    inFluent(<MomentInput value="" onChange={onChange} onEnter={onEnter} onProblem={onProblem} />);
    const box = screen.getByRole('textbox') as HTMLInputElement;
    expect(box.placeholder).toBe('DD Mon YYYY HH:mm');
    type(box, '25/11/2026 14:30:05');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('2026-11-25T09:00:05.000Z');
    expect(onEnter).toHaveBeenCalledWith('2026-11-25T09:00:05.000Z');
    expect(box.value).toBe('25 Nov 2026 14:30:05');
    type(box, '11/25/2026 2:30 PM');
    fireEvent.keyDown(box, { key: 'Enter' });
    expect(onEnter).toHaveBeenLastCalledWith(null);
    expect(box.value).toBe('11/25/2026 2:30 PM');
    expect(onProblem).toHaveBeenLastCalledWith(
      '11/25/2026 2:30 PM is not a moment: type a date and a 24-hour time, as in 25 Nov 2026 14:30.',
    );
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('leaves a moment it shows untouched when the box is left unchanged (milliseconds kept)', () => {
    const onChange = vi.fn();
    inFluent(<MomentInput value="2026-11-25T09:00:05.123Z" onChange={onChange} />);
    const box = screen.getByRole('textbox') as HTMLInputElement;
    expect(box.value).toBe('25 Nov 2026 14:30:05');
    fireEvent.focus(box);
    fireEvent.blur(box);
    expect(onChange).not.toHaveBeenCalled();
  });
});
