import { userCreateInput, userUpdateInput } from '@bahi/contracts';
import { api, FormDialog, ROLES, type User, useSnackbar } from '@bahi/ui';
import { FormProvider, SelectField, SwitchField, TextField, useSchemaForm } from '@bahi/ui/form';
import { useMutation, useQueryClient } from '@bahi/ui/screen';

/**
 * Add New User / Edit User (spec sections 2 and 5): a blank password on edit keeps the current
 * one and is left out; the server's reasons (a short password, an email taken) show on their field.
 */
export function UserFormDialog(props: { user: User | null; onClose(): void }) {
  const { user } = props;
  const notify = useSnackbar();
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (body: object) =>
      user ? api.put(`/masters/users/${user.id}`, body) : api.post('/masters/users', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['settings', 'users'] }),
  });
  const form = useSchemaForm(user ? userUpdateInput : userCreateInput, {
    name: user?.name ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    role: user?.role ?? 'Viewer',
    is_active: user?.is_active ?? true,
    password: '',
  });
  const submit = form.submit(async (values) => {
    const { password, ...rest } = values;
    await save.mutateAsync(password ? { ...rest, password } : rest);
    notify(user ? 'User updated successfully!' : 'User created successfully!');
    props.onClose();
  });
  return (
    <FormProvider {...form}>
      <FormDialog
        open
        title={user ? 'Edit User' : 'Add New User'}
        busy={form.formState.isSubmitting}
        error={form.alert}
        onClose={props.onClose}
        onSubmit={() => void submit()}
      >
        <TextField name="name" label="Full Name" required />
        <TextField name="email" label="Email" type="email" required autoComplete="off" />
        <TextField name="phone" label="Phone" type="tel" />
        <SelectField name="role" label="Role" required choices={ROLES.map((r) => ({ value: r, label: r }))} />
        <TextField
          name="password"
          label="Password"
          type="password"
          autoComplete="new-password"
          required={!user}
          hint={user ? 'Leave blank to keep current password' : 'Min. 6 characters required'}
        />
        <SwitchField name="is_active" label="Active" />
      </FormDialog>
    </FormProvider>
  );
}
