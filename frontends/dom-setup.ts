import { configure } from '@testing-library/react';
import { beforeEach } from 'vitest';

// happy-dom's Web Animations cancel with an AbortError that nobody awaits; without animate()
// Fluent's motion components skip their animations, as they do in browsers without it.
for (const proto of [Element.prototype, HTMLElement.prototype]) Reflect.deleteProperty(proto, 'animate');

// Lazily loaded parts (banner, dialogs, table) are imported on first render; on a machine busy
// with other test projects that can take longer than Testing Library's default 1 s wait.
configure({ asyncUtilTimeout: 10_000 });

// The shell's idle prefetch of the remotes is off in DOM tests: there are no remotes to fetch
// (the switch of frontends/shell/src/app/prefetch.ts; its own test turns it on).
beforeEach(() => localStorage.setItem('bahi.prefetch', 'off'));
