const form = document.getElementById('labels');
const status = document.getElementById('status');
async function save() {
  const data = {relevance: {}};
  for (const box of form.querySelectorAll('input[data-criterion]')) data[box.dataset.criterion] = box.checked;
  for (const box of form.querySelectorAll('input[data-context]')) {
    if (box.checked !== (box.dataset.original === 'true')) data.relevance[box.dataset.context] = box.checked;
  }
  const note = form.querySelector('textarea');
  if (note) data.note = note.value;
  const reply = await fetch(form.dataset.action, {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                  body: JSON.stringify(data)});
  status.textContent = reply.ok ? 'saved' : 'not saved (' + reply.status + ')';
}
form.addEventListener('change', save);
document.addEventListener('keydown', (event) => {
  if (event.target.tagName === 'TEXTAREA') { if (event.key === 'Escape') event.target.blur(); return; }
  const boxes = form.querySelectorAll('input[data-criterion]');
  if (/^[1-5]$/.test(event.key) && boxes[Number(event.key) - 1]) {
    const box = boxes[Number(event.key) - 1]; box.checked = !box.checked; save();
  } else if (event.key === 's') { save(); }
  else if ((event.key === 'j' || event.key === 'ArrowRight') && form.dataset.next) { location.href = form.dataset.next; }
  else if ((event.key === 'k' || event.key === 'ArrowLeft') && form.dataset.previous) { location.href = form.dataset.previous; }
});
