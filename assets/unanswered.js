// The last table move this page sent, so that the server can apply it once after a reconnect
// or tell the player it was not made (pifecacheta/state/unanswered.py says why and how).
// It rides on Reflex's instrumentation hooks (window.__reflex_otel, called by the frontend's
// utils/state.js): onEventSend for every event sent on the socket, onSocketConnect and
// onSocketDisconnect. A move is a TableState event with a table version; it counts as
// answered once the page shows another table version or a new refusal (the hidden
// #pc-answered element of the table page carries both). window.pcUnanswered() hands the
// server a move sent on an earlier connection and not seen answered, once.
(() => {
  const STATE = "___table____table_state.";
  const MOVES = ["draw", "take", "pile_click", "card_double", "drop_on_pile", "go_out", "announce", "next_round"];
  let epoch = 0; // connections so far
  let pending = null; // {kind, args, epoch, seen: [version, serial] when it was sent}
  let dragged = ""; // the card of the last drag_start: a drop sends no card
  const seen = () => {
    const m = document.getElementById("pc-answered");
    return m ? [m.dataset.version, m.dataset.serial] : null;
  };
  const answered = () => {
    const now = seen();
    return !pending.seen || !now || now[0] !== pending.seen[0] || now[1] !== pending.seen[1];
  };
  const hooks = window.__reflex_otel || {};
  window.__reflex_otel = Object.assign(hooks, {
    onEventSend(event) {
      const name = String((event && event.name) || "");
      const at = name.lastIndexOf(STATE);
      if (at < 0) return;
      const kind = name.slice(at + STATE.length);
      const p = (event && event.payload) || {};
      if (kind === "drag_start") {
        dragged = String(p.card_id || "");
        return;
      }
      if (!MOVES.includes(kind) || typeof p.version !== "number") return;
      let move = { kind, args: { ...p } };
      if (kind === "drop_on_pile") {
        if (!dragged) return;
        move = { kind: "card_double", args: { card_id: dragged, version: p.version } };
      }
      if (kind === "pile_click" && p.phase !== "draw" && !p.selected) return; // a tap that does nothing
      pending = { ...move, epoch, seen: seen() };
    },
    onSocketDisconnect() {
      if (pending && answered()) pending = null;
    },
    onSocketConnect() {
      epoch += 1;
    },
  });
  window.pcUnanswered = () => {
    if (!pending || pending.epoch >= epoch) return null; // sent on this connection: answered on it
    const move = { kind: pending.kind, args: pending.args };
    pending = null;
    return move;
  };
})();
