// Quire's only script: copy buttons for new agent keys. Without it the key stays in a
// read-only field the reader selects and copies; the button is hidden until this runs.
for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.status);
  if (!field) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    field.focus();
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      if (status) status.textContent = button.dataset.done;
    } catch {
      if (status) status.textContent = button.dataset.failed;
    }
  });
}
for (const field of document.querySelectorAll("input[data-select]")) {
  field.addEventListener("focus", () => field.select());
}
