import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

export interface TabSpec {
  id: string;
  label: string;
}

/** WAI-ARIA tabs: one tab stop, arrows/Home/End move between tabs and select them. */
export function Tabs({
  tabs,
  selected,
  onSelect,
  label,
  children,
}: {
  tabs: TabSpec[];
  selected: string;
  onSelect: (id: string) => void;
  label: string;
  children: ComponentChildren;
}) {
  const list = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent, index: number) => {
    let next = -1;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    onSelect(tabs[next].id);
    list.current?.querySelectorAll<HTMLButtonElement>('[role=tab]')[next]?.focus();
  };
  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} ref={list} class="tablist">
        {tabs.map((tab, index) => (
          <button
            type="button"
            role="tab"
            id={`tab-${tab.id}`}
            key={tab.id}
            aria-selected={tab.id === selected}
            aria-controls={`panel-${tab.id}`}
            tabIndex={tab.id === selected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            onKeyDown={(event) => move(event, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${selected}`} aria-labelledby={`tab-${selected}`} class="tabpanel" tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
