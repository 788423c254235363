// Saves generated content as a file: a CSV string or a canvas as PNG. Works from file://
// and any host (a temporary blob: link, clicked, then revoked).

export function downloadBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function downloadCsv(rows, filename) {
  const quote = (cell) => {
    const text = String(cell);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const csv = `${rows.map((row) => row.map(quote).join(',')).join('\n')}\n`;
  downloadBlob(new Blob([csv], { type: 'text/csv' }), filename);
}

export function downloadCanvas(canvas, filename) {
  canvas.toBlob((blob) => blob && downloadBlob(blob, filename), 'image/png');
}
