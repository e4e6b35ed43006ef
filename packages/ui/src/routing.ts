// The router for remotes. react-router is not a module-federation shared module (shared, it
// ships whole: ~60 kB gzip of the shell's first page); the shell bundles the parts it uses and
// @bahi/ui, the shared singleton, hands remotes the same router instance through these.
// A remote imports routing from '@bahi/ui', never from 'react-router'.
export {
  Link,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useHref,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
