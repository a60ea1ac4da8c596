// Rollup's settings for the page (page_bundle.rs runs `rollup --config` with this file,
// naming the input and the output folder itself): the start, app.js and every module it
// imports statically, is one file, app.js; each game's screens are chunks that import what
// they share from it.
const start = new Set();

export default {
  output: {
    format: "es",
    // A game's modules share names (every game has a screen.js and an api.js): a chunk of
    // one game's modules says the game.
    chunkFileNames: (chunk) => {
      const games = new Set(chunk.moduleIds.map((id) => /[\\/]games[\\/]([^\\/]+)[\\/]/.exec(id)?.[1]));
      const [game] = games;
      return games.size === 1 && game ? `chunks/${game}-[name].js` : "chunks/[name].js";
    },
    manualChunks: (id) => (start.has(id) ? "app" : undefined),
  },
  plugins: [
    {
      name: "start-modules",
      // Runs once every module is known, before the chunks are made.
      buildEnd() {
        const todo = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id).isEntry);
        while (todo.length > 0) {
          const id = todo.pop();
          if (start.has(id)) continue;
          start.add(id);
          todo.push(...this.getModuleInfo(id).importedIds);
        }
      },
    },
  ],
};
