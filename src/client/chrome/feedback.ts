/** The 意见反馈 dialog's form: counts characters, checks the length, posts, and swaps to the thank-you. */
const chars = (s: string) => [...s].length;

export function initFeedback(dialog: HTMLDialogElement): void {
  const form = dialog.querySelector<HTMLFormElement>('[data-feedback-form]')!;
  const thanks = dialog.querySelector<HTMLElement>('[data-feedback-thanks]')!;
  const content = form.elements.namedItem('content') as HTMLTextAreaElement;
  const contact = form.elements.namedItem('contact') as HTMLInputElement;
  const counter = form.querySelector<HTMLElement>('[data-max]')!;
  const error = form.querySelector<HTMLElement>('[role="alert"]')!;
  const submit = form.querySelector<HTMLButtonElement>('[type="submit"]')!;
  const min = content.minLength;
  const max = Number(counter.dataset.max);

  const count = () => (counter.textContent = `${chars(content.value)}/${max}`);
  content.addEventListener('input', () => {
    count();
    error.textContent = '';
    content.removeAttribute('aria-invalid');
  });
  form.querySelector('[data-feedback-cancel]')?.addEventListener('click', () => dialog.close());

  // Every opening starts with the form (after a thank-you, or a message left half-written stays as it was).
  dialog.addEventListener('close', () => {
    if (thanks.hidden) return;
    thanks.hidden = true;
    form.hidden = false;
    form.reset();
    count();
  });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (chars(content.value.trim()) < min) {
      error.textContent = form.dataset.tooShort ?? '';
      content.setAttribute('aria-invalid', 'true');
      content.focus();
      return;
    }
    submit.disabled = true;
    submit.textContent = form.dataset.submitting ?? '';
    try {
      const { apiPost } = await import('../../stores/api.ts');
      await apiPost(
        '/feedback',
        { content: content.value.trim(), contact: contact.value.trim() || undefined },
        { quiet: true },
      );
      // A reply through the contact left is promised only when one was left.
      const left = contact.value.trim() !== '';
      thanks.querySelector<HTMLElement>('[data-thanks-contact]')!.hidden = !left;
      thanks.querySelector<HTMLElement>('[data-thanks-anonymous]')!.hidden = left;
      form.hidden = true;
      thanks.hidden = false;
      thanks.querySelector<HTMLElement>('[data-thanks-title]')?.focus();
    } catch (failure) {
      error.textContent = (failure as Error).message;
    } finally {
      submit.disabled = false;
      submit.textContent = submit.dataset.label ?? '';
    }
  });
}
