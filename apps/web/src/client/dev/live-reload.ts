// Development only (`bun run dev`): reload the page when the server says a new build is in.
// When the server restarts, the stream drops and EventSource reconnects on its own.
const events = new EventSource("/__dev/reload");
events.onmessage = () => location.reload();
