// placeholder: replaced by the real figure
export function mount(element) {
  return { destroy() {} };
}
