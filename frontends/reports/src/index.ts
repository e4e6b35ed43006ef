// Module federation needs an async boundary before shared modules are used.
import('./bootstrap.ts');
