import Database from "better-sqlite3";
const db = new Database("/tmp/big/app.db", { readonly: true });
const t = (label: string, sql: string, ...args: unknown[]) => {
  const st = db.prepare(sql); st.all(...args);
  const s = performance.now(); for (let i = 0; i < 20; i++) st.all(...args);
  console.log(((performance.now() - s) / 20).toFixed(3), "ms", label, JSON.stringify(st.all(...args)).slice(0, 70));
  console.log(db.prepare("EXPLAIN QUERY PLAN " + sql).all(...args).map((r: any) => "   " + r.detail).join("\n"));
};
const k = db.prepare("SELECT likes, id FROM Post WHERE hubId = 1 ORDER BY likes DESC, id DESC LIMIT 1 OFFSET 99499").get() as any;
console.log(k, db.prepare("select likes, count(*) n from Post where hubId=1 group by likes order by likes desc limit 8").all());
t("rowvalue", "SELECT id FROM Post WHERE hubId = ? AND (likes, id) < (?, ?) ORDER BY likes DESC, id DESC LIMIT 10 OFFSET 490", 1, k.likes, k.id);
t("union", `SELECT id FROM (
   SELECT * FROM (SELECT id, likes FROM Post WHERE hubId = @hub AND likes = @k AND id < @id ORDER BY id DESC LIMIT @n + @skip)
   UNION ALL
   SELECT * FROM (SELECT id, likes FROM Post WHERE hubId = @hub AND likes < @k ORDER BY likes DESC, id DESC LIMIT @n + @skip)
 ) ORDER BY likes DESC, id DESC LIMIT @n OFFSET @skip`, { hub: 1, k: k.likes, id: k.id, n: 10, skip: 490 });
t("rowvalue latest-like on date", "SELECT id FROM Post WHERE hubId = ? AND (date, id) < (?, ?) ORDER BY date DESC, id DESC LIMIT 10 OFFSET 490", 1, 1790000000000, 174101);
