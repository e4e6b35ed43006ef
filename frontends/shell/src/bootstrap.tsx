import { createRoot } from 'react-dom/client';
import { App } from './app/app.tsx';

const root = document.getElementById('root') ?? document.body.appendChild(document.createElement('div'));
createRoot(root).render(<App />);
