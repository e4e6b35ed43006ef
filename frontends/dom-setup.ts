// happy-dom's Web Animations cancel with an AbortError that nobody awaits; without animate()
// Fluent's motion components skip their animations, as they do in browsers without it.
for (const proto of [Element.prototype, HTMLElement.prototype]) Reflect.deleteProperty(proto, 'animate');
