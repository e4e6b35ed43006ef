// Module federation needs an async boundary before shared modules (React, Fluent) are used.
import('./bootstrap.tsx');
