import { configure } from '@testing-library/react';

// happy-dom's Web Animations cancel with an AbortError that nobody awaits; without animate()
// Fluent's motion components skip their animations, as they do in browsers without it.
for (const proto of [Element.prototype, HTMLElement.prototype]) Reflect.deleteProperty(proto, 'animate');

// Lazily loaded parts (banner, dialogs, table) are imported on first render; on a machine busy
// with other test projects that can take longer than Testing Library's default 1 s wait.
configure({ asyncUtilTimeout: 10_000 });
