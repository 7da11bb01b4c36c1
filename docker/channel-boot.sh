for p in /usr/bin/python3 /usr/local/bin/python3 /bin/python3 "$(command -v python3)"; do
  if [ -n "$p" ] && [ -x "$p" ]; then "$p" -I -S -c "$1"; break; fi
done
printf '\000\000\000\000n\000\000\000\000'
exec sleep infinity </dev/null >/dev/null 2>&1
