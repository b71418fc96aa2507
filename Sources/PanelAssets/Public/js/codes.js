// Copy and download buttons for recovery codes shown once. Without this script the codes
// are still on the page to copy by hand, and the buttons stay hidden.
for (const panel of document.querySelectorAll("[data-codes]")) {
  const text = panel.dataset.codes + "\n";
  const said = panel.querySelector("[data-said]");
  const copy = panel.querySelector("[data-copy]");
  const download = panel.querySelector("[data-download]");
  copy.hidden = false;
  download.hidden = false;
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      said.textContent = "Copied.";
    } catch {
      said.textContent = "The browser did not allow copying: select the codes and copy them.";
    }
  });
  download.addEventListener("click", () => {
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    link.download = "expiry-tracker-admin-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(link.href);
    said.textContent = "Downloaded.";
  });
}
