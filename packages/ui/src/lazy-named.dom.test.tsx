import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it } from 'vitest';
import { lazyNamed } from './lazy-named.ts';

describe('lazyNamed', () => {
  it('preload() makes the import React.lazy renders from, once', async () => {
    let imports = 0;
    const Hello = lazyNamed(async () => {
      imports++;
      return { Hello: (props: { who: string }) => <p>Hello {props.who}</p> };
    }, 'Hello');
    await Hello.preload();
    await Hello.preload();
    render(
      <Suspense fallback="loading">
        <Hello who="Asha" />
      </Suspense>,
    );
    expect(await screen.findByText('Hello Asha')).toBeTruthy();
    expect(imports).toBe(1);
  });

  it('forgets a failed preload: the first render imports again', async () => {
    let imports = 0;
    const Hello = lazyNamed(async () => {
      imports++;
      if (imports === 1) throw new Error('offline');
      return { Hello: () => <p>Hello again</p> };
    }, 'Hello');
    await expect(Hello.preload()).rejects.toThrow('offline');
    render(
      <Suspense fallback="loading">
        <Hello />
      </Suspense>,
    );
    expect(await screen.findByText('Hello again')).toBeTruthy();
    expect(imports).toBe(2);
  });
});
