import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAt } from '../../testing/render.tsx';
import { LoginPage } from './login-page.tsx';

describe('Admin Login (spec sections 2 and 9)', () => {
  afterEach(cleanup);

  it('has the focus in the email field on load, so staff type at once', () => {
    renderAt('/login', <LoginPage />);
    expect(document.activeElement).toBe(screen.getByLabelText(/^Email/));
  });
});
