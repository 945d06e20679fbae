import { fieldChanged, fieldId, getAt, setAt, type FormField, type FormGroup, type Spec } from '../specForm';

/** The Controller spec as form fields; fields the form does not show (env, podTemplate, secrets…) are kept as they are. */
export function SpecForm({
  groups,
  spec,
  current,
  onChange,
}: {
  groups: FormGroup[];
  spec: Spec;
  /** The spec in force: changed restart-class fields are marked against it. Absent for a new controller. */
  current?: Spec | null;
  onChange: (spec: Spec) => void;
}) {
  return (
    <div class="spec-form">
      {groups.map((group) => (
        <fieldset key={group.title} class="spec-group">
          <legend>{group.title}</legend>
          {group.fields.map((field) => (
            <FormInput key={fieldId(field)} field={field} spec={spec} current={current} onChange={onChange} />
          ))}
        </fieldset>
      ))}
    </div>
  );
}

function FormInput({
  field,
  spec,
  current,
  onChange,
}: {
  field: FormField;
  spec: Spec;
  current?: Spec | null;
  onChange: (spec: Spec) => void;
}) {
  const id = fieldId(field);
  const value = getAt(spec, field.path);
  const rolls = current !== undefined && field.restart && fieldChanged(current, spec, field.path);
  const set = (next: unknown) => onChange(setAt(spec, field.path, next));
  let input;
  if (field.kind === 'checkbox') {
    input = <input id={id} type="checkbox" checked={value === true} onChange={(e) => set((e.target as HTMLInputElement).checked)} />;
  } else if (field.kind === 'select') {
    input = (
      <select id={id} value={value === undefined ? '' : String(value)} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
        <option value="">(inherit)</option>
        {field.options!.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  } else {
    input = (
      <input
        id={id}
        type={field.kind === 'number' ? 'number' : 'text'}
        value={value === undefined || value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value)}
        placeholder={field.placeholder}
        onInput={(e) => {
          const text = (e.target as HTMLInputElement).value;
          set(field.kind === 'number' && text !== '' && Number.isFinite(Number(text)) ? Number(text) : text);
        }}
      />
    );
  }
  return (
    <div class={`field spec-field${field.kind === 'checkbox' ? ' checkbox' : ''}`} data-field={'spec.' + field.path.join('.')}>
      <label for={id}>
        {field.label}
        {field.restart ? (
          <span class="restart-hint" title="A change here rolls the pod (restart class)">
            {' '}
            ↻
          </span>
        ) : null}
      </label>
      {input}
      {rolls ? (
        <span class="badge restart-badge" data-restart-field={'spec.' + field.path.join('.')}>
          rolls the pod
        </span>
      ) : null}
    </div>
  );
}
