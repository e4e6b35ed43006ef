// Opened on its own, a remote only points at the app: the shell loads it at /reports/... .
const p = document.createElement('p');
p.textContent = 'This is the reports remote of Bahi. Open the app at / : the shell loads this remote.';
document.body.append(p);

export {};
