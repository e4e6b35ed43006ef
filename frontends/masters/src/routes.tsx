import { NotFoundPage, Route, Routes } from '@bahi/ui';
import { ScreenProviders } from '@bahi/ui/screen';
import { AgentsPage } from './features/agents/agents-page.tsx';
import { CitiesPage } from './features/cities/cities-page.tsx';
import { CollectorsPage } from './features/collectors/collectors-page.tsx';
import { FundersPage } from './features/funders/funders-page.tsx';
import { GodownsPage } from './features/godowns/godowns-page.tsx';
import { ProductsPage } from './features/products/products-page.tsx';

/** The masters remote's screens under /masters (spec section 2, route table). */
export default function MastersRoutes(_props: { base: string }) {
  return (
    <ScreenProviders>
      <Routes>
        <Route path="cities" element={<CitiesPage />} />
        <Route path="products" element={<ProductsPage />} />
        <Route path="funders" element={<FundersPage />} />
        <Route path="agents" element={<AgentsPage />} />
        <Route path="collectors" element={<CollectorsPage />} />
        <Route path="godowns" element={<GodownsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </ScreenProviders>
  );
}
