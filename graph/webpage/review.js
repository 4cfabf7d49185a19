const form = document.getElementById('labels');
const status = document.getElementById('status');
let pending = 0;
async function save() {
  const data = {relevance: {}};
  for (const box of form.querySelectorAll('input[data-criterion]')) data[box.dataset.criterion] = box.checked;
  for (const box of form.querySelectorAll('input[data-context]')) {
    if (box.checked !== (box.dataset.original === 'true')) data.relevance[box.dataset.context] = box.checked;
  }
  for (const field of form.querySelectorAll('input.quote')) {
    if (field.value === field.dataset.quote) continue;
    (data.evidence ??= {})[field.dataset.chunkId] ??= {};
    data.evidence[field.dataset.chunkId][field.dataset.quote] = field.value;
  }
  const note = form.querySelector('textarea');
  if (note) data.note = note.value;
  pending += 1;
  status.textContent = 'saving';
  let shown;
  try {
    const reply = await fetch(form.dataset.action, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                    body: JSON.stringify(data)});
    const answer = reply.ok ? null : await reply.json().catch(() => null);
    shown = reply.ok ? 'saved' : 'not saved: ' + ((answer && answer.error) || reply.status);
  } catch (error) {
    shown = 'not saved (no connection)';
  }
  pending -= 1;
  // 'saved' once no save is under way; a failure at once.
  if (pending === 0 || shown !== 'saved') status.textContent = shown;
}
form.addEventListener('change', save);
document.addEventListener('keydown', (event) => {
  if (event.target.tagName === 'TEXTAREA' || event.target.type === 'text') {
    if (event.key === 'Escape') event.target.blur();
    return;
  }
  const boxes = form.querySelectorAll('input[data-criterion]');
  if (/^[1-5]$/.test(event.key) && boxes[Number(event.key) - 1]) {
    const box = boxes[Number(event.key) - 1]; box.checked = !box.checked; save();
  } else if (event.key === 's') { save(); }
  else if ((event.key === 'j' || event.key === 'ArrowRight') && form.dataset.next) { location.href = form.dataset.next; }
  else if ((event.key === 'k' || event.key === 'ArrowLeft') && form.dataset.previous) { location.href = form.dataset.previous; }
});
