// Progressive enhancement only: every page works without this file.
document.documentElement.classList.add("js");

document.addEventListener("click", async (event) => {
  const button = event.target.closest("button.copy");
  if (!button) return;
  const original = button.textContent;
  try {
    let text;
    if (button.dataset.copy) {
      const field = document.querySelector(button.dataset.copy);
      text = field.value;
      field.select();
    } else if (button.dataset.copyUrl) {
      const response = await fetch(button.dataset.copyUrl, { credentials: "same-origin" });
      text = await response.text();
    }
    await navigator.clipboard.writeText(text);
    button.textContent = "✓";
  } catch (error) {
    button.textContent = "✗";
  }
  setTimeout(() => { button.textContent = original; }, 1500);
});
