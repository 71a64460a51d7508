// Progressive enhancement only: every page works without this file.
document.documentElement.classList.add("js");

// The new army's usual limits, one tap each (the number field takes any other).
document.querySelectorAll(".limit-picks").forEach((picks) => { picks.hidden = false; });
document.addEventListener("click", (event) => {
  const pick = event.target.closest("button[data-limit]");
  const field = pick && document.getElementById("new-limit");
  if (!field) return;
  field.value = pick.dataset.limit;
  for (const other of pick.parentElement.children) other.setAttribute("aria-pressed", other === pick);
});

// A card the player puts away once read (the edit link shown after the army is made).
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-dismiss]");
  const card = button && document.querySelector(button.dataset.dismiss);
  if (card) card.remove();
});

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
// chosen those fields show what it adds and are disabled, so that nothing typed into them is
// silently ignored.
function followPreset(select) {
  const picked = select.selectedOptions[0];
  for (const name of ["figures", "troop", "weapon"]) {
    const field = select.form && select.form.elements.namedItem(name);
    if (!field) continue;
    if (!field.disabled) field.dataset.own = field.value; // the player's own, given back
    field.value = select.value !== "" && picked ? picked.dataset[name] : field.dataset.own;
    field.disabled = select.value !== "";
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

// Formation Density's new unit: a two-handed weapon leaves no hand for a shield, so its box is
// off while one is chosen (a box already ticked stays as it is: the rules panel then says why).
function followKit(select) {
  const shield = select.form && select.form.elements.namedItem("shield");
  if (!shield) return;
  const weapon = select.value.split(":")[1];
  const twoHanded = (select.dataset.noShield || "").split(" ").includes(weapon);
  shield.disabled = twoHanded && !shield.checked;
}

document.addEventListener("change", (event) => {
  if (event.target.matches("select[name='preset']")) followPreset(event.target);
  if (event.target.matches("select[data-no-shield]")) followKit(event.target);
  if (event.target.matches("select[name='ruleset']")) followRuleset(event.target);
});

// A form the browser restores (back button) keeps its choices.
window.addEventListener("pageshow", () => {
  document.querySelectorAll("select[name='preset']").forEach(followPreset);
  document.querySelectorAll("select[data-no-shield]").forEach(followKit);
  document.querySelectorAll("select[name='ruleset']").forEach(followRuleset);
});

// The whole editor is drawn anew after some changes (a setting, a new unit, Duplicate,
// Remove, a move, Undo): the parts the player had open stay open, known by their ids (a
// unit's row by its unit's id, which no change to another unit changes).
let wasOpen = null;
document.body.addEventListener("htmx:beforeSwap", (event) => {
  const editor = event.detail.target;
  if (!editor || editor.id !== "editor") return;
  wasOpen = [...editor.querySelectorAll("details[id][open]")].map((part) => part.id);
});
document.body.addEventListener("htmx:afterSwap", (event) => {
  if (!wasOpen || !event.detail.target || event.detail.target.id !== "editor") return;
  for (const id of wasOpen) {
    const part = document.getElementById(id);
    if (part) part.open = true;
  }
  wasOpen = null;
});

// A change never fails in silence. On a network error, a timeout or a server error the field
// that changed is marked "not saved" and a message with a Retry button appears by it; the
// totals still show what the server stored, and say so.
const sent = new WeakMap(); // form → { field, submitter } of its last request
document.body.addEventListener("htmx:beforeRequest", (event) => {
  const cause = event.detail.requestConfig && event.detail.requestConfig.triggeringEvent;
  sent.set(event.detail.elt, {
    field: cause && cause.type === "change" ? cause.target : null,
    submitter: cause && cause.submitter ? cause.submitter : null,
  });
});

function clearFailure(form) {
  form.querySelectorAll(".save-failed").forEach((note) => note.remove());
  form.querySelectorAll(".not-saved").forEach((field) => {
    field.classList.remove("not-saved");
    field.removeAttribute("aria-invalid");
  });
}

function failed(event) {
  const form = event.detail.elt;
  if (!form || !form.isConnected) return;
  const words = document.body.dataset;
  const { field, submitter } = sent.get(form) || {};
  clearFailure(form);
  const note = document.createElement("p");
  note.className = "save-failed";
  note.setAttribute("role", "alert");
  note.textContent = words.notSaved || "Not saved.";
  const retry = document.createElement("button");
  retry.type = "button";
  retry.className = "retry";
  retry.textContent = words.retry || "Retry";
  retry.addEventListener("click", () => {
    clearFailure(form);
    if (submitter && submitter.isConnected) form.requestSubmit(submitter);
    else form.requestSubmit();
  });
  note.append(" ", retry);
  // Back online: the change is sent again by itself, as if Retry were pressed.
  window.addEventListener("online", () => { if (retry.isConnected) retry.click(); },
                          { once: true });
  const mark = field && field.isConnected ? field : submitter;
  if (mark) {
    mark.classList.add("not-saved");
    mark.setAttribute("aria-invalid", "true");
    // After the table or group holding the field: a row of a table takes no paragraph.
    const place = mark.closest("table, fieldset, .unit-head, .inline-form > *") || mark;
    place.after(note);
  } else {
    form.prepend(note);
  }
  const summary = document.getElementById("summary");
  if (summary) summary.classList.add("stale");
}
for (const name of ["htmx:sendError", "htmx:responseError", "htmx:timeout"]) {
  document.body.addEventListener(name, failed);
}
document.body.addEventListener("htmx:afterRequest", (event) => {
  if (!event.detail.successful || event.detail.failed) return;
  const form = event.detail.elt;
  if (form && form.isConnected) clearFailure(form);
  const summary = document.getElementById("summary");
  if (summary) summary.classList.remove("stale");
});

// A calculator's answer, swapped in place, is brought into view (a phone's form fills the
// screen, and the result came in below it).
document.body.addEventListener("htmx:afterSettle", (event) => {
  const id = event.detail.target && event.detail.target.id;
  if (!id || !/-result$|^tournament$/.test(id)) return;
  const result = document.getElementById(id);
  if (!result) return;
  const top = result.getBoundingClientRect().top;
  // Its start in view: left where it is when it is there already.
  if (top < 0 || top > window.innerHeight * 0.75) result.scrollIntoView({ block: "start" });
});
