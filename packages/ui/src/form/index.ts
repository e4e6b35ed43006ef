// '@bahi/ui/form': forms on the screen foundation (docs/frontend.md). A module-federation singleton
// of its own, loaded with the first dialog that needs it: react-hook-form, the zod resolver, the
// fields and the party picker do not weigh on a list's first screen.
export { FormProvider, useController, useFieldArray, useFormContext, useWatch } from 'react-hook-form';
export * from './entity-picker.tsx';
export * from './fields.tsx';
export * from './preview.tsx';
export * from './schema-form.ts';
