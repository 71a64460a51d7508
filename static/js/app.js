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

// A preset decides the figures, troop type and weapon of the unit it adds: while one is
// chosen those fields are disabled, so that nothing typed into them is silently ignored.
function followPreset(select) {
  for (const name of ["figures", "troop", "weapon"]) {
    const field = select.form && select.form.elements.namedItem(name);
    if (field) field.disabled = select.value !== "";
  }
}

// A new army's form shows the fields of the chosen rule system only (a nation means nothing
// to Line and Square); the hidden ones are disabled, so they are not sent either.
function followRuleset(select) {
  if (!select.form) return;
  select.form.querySelectorAll("fieldset[data-system]").forEach((fieldset) => {
    const other = fieldset.dataset.system !== select.value;
    fieldset.hidden = other;
    fieldset.disabled = other;
  });
}

document.addEventListener("change", (event) => {
  if (event.target.matches("select[name='preset']")) followPreset(event.target);
  if (event.target.matches("select[name='ruleset']")) followRuleset(event.target);
});

// A form the browser restores (back button) keeps its choices.
window.addEventListener("pageshow", () => {
  document.querySelectorAll("select[name='preset']").forEach(followPreset);
  document.querySelectorAll("select[name='ruleset']").forEach(followRuleset);
});

// After a unit's action the server names where the keyboard's focus belongs (the moved unit's
// button, the copy's name, the list's heading): the pressed button is gone or moved.
document.body.addEventListener("muster-focus", (event) => {
  const target = document.getElementById(event.detail && event.detail.id);
  if (target) target.focus();
});
