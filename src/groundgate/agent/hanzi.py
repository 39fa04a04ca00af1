"""Traditional Chinese characters read as the simplified ones the documents and cue tables use.

A question written in traditional characters ("請問一下，連續病假剛好 3 天的話…", "幫我查一下張偉這週手上有哪些
待辦？", blind 15) named none of the words the rules read: 病假 matched but 病歷複印件 did not, and 張偉這週手上
passed the other-person guard, so another person's tasks were answered from the caller's own rows. Every cue
table, glossary and document is in simplified characters, so the question is folded character by character
before any rule reads it.

The table holds the common traditional forms whose simplified form differs. Characters that are also ordinary
simplified characters with a meaning of their own (著 in 显著, 瞭 in 瞭望) are left out, so a question already
in simplified characters reads exactly as before.
"""

from __future__ import annotations

from typing import Final

__all__ = ["read_simplified"]

#: Traditional characters, in code-point order, ...
_TRADITIONAL: Final = (
    "並亞併來係個們偉傑傘備傭傳債傷傾僅僱價儀億償優儲兌兒內兩冊凍則剛創劃劇劉劑動務勝勞勢勵匯區協卻參叢吳呂員問啟喚喪單嗎嘗嚴"
    "囉國圍圓圖團執報場壓壞壯壽夠夢夥奪奮妝婦媽嬰孫學實寧審寫寬寵寶將專對導屆層屬岡島崗嶺師帳帶幣幫幹幾庫廈廠廢廣廳張強彈彎彥"
    "後徑從復徵態慣慶憂憑憶應懲懶懷戀戰戲戶掃掛採揚換損搶摺擁擇擊擋擔據擠擬擴擺擾攔攜數斂斷於時晉晝暫曆曉書會朧東條楊極構標樣"
    "樹橋機檔檢櫃權歐歡歲歷歸殘殯殼毀氣沒渙減測湯準溝溫滬滯滿漢漲濟濤濱灣為燈爐爭爺牆狀猶獎獨獲獻現環產畝畢畫異當疊療癢發盜盡"
    "監盤盧眾睜矯確碼礙祿禍禦禮稅種積穎穩窮竇竊競筆節範築簡簽籃粵糧糾紀約紅紋納紐純紙級紛紡細紹終組結絕絡給統絲絹綁經綜綠維綱"
    "網緊緒線締緣編練縣縮總績織繩繪繫繳繼續纔纖罰羅義習聖聞聯聰聲職聽肅脅脈腦腳膚臉臨臺與興舉舊艙艦艱莊華萬葉蓋蓮蔣蕭藝藥蘇蘋"
    "蘭處虛號蟲蠟衆術衛衝裏補裡製複襪見規視親覺覽觀觸訂計訊討訓託記訪設許訴診評詞詢試話該詳誌認誕誤說誰課調談請論諸諾謀謂講謝"
    "證識譚譜議護讀變讓豐貝負財貢貧貨販貫責貴買貸費貼貿資賈賓賜賞賠賢賣質賬賴購賽贈贊趕趙趨跡踐躍車軌軍軟較載輔輕輛輝輩輪輸轉"
    "辦辭農這連週進遊運過達遞遠適遲遷選遺還邊郵鄉鄧鄭鄰醫醬釋釘針鈴鉛銀銅銷鋪鋼錄錢錯錶鍵鍾鎮鏡鐘鐵鑑長門閃閉開閒間閱闆闖關陰"
    "陳陸陽隊階際隨險隱隸隻雖雙雜雞離難雲電霧靈靜韋韓響頁頂項順須預頒頓領頭頻題額顏願類顧顯風飛飯飲飽飾養餘館馬馮駐駕騙騰驗驚"
    "體髮鬆鬧魚鳥鳳鳴麗麥麵麼黃點黨齊齒齡龍龜"
)
#: ... and the simplified character each one is read as, in the same order.
_SIMPLIFIED: Final = (
    "并亚并来系个们伟杰伞备佣传债伤倾仅雇价仪亿偿优储兑儿内两册冻则刚创划剧刘剂动务胜劳势励汇区协却参丛吴吕员问启唤丧单吗尝严"
    "啰国围圆图团执报场压坏壮寿够梦伙夺奋妆妇妈婴孙学实宁审写宽宠宝将专对导届层属冈岛岗岭师帐带币帮干几库厦厂废广厅张强弹弯彦"
    "后径从复征态惯庆忧凭忆应惩懒怀恋战戏户扫挂采扬换损抢折拥择击挡担据挤拟扩摆扰拦携数敛断于时晋昼暂历晓书会胧东条杨极构标样"
    "树桥机档检柜权欧欢岁历归残殡壳毁气没涣减测汤准沟温沪滞满汉涨济涛滨湾为灯炉争爷墙状犹奖独获献现环产亩毕画异当叠疗痒发盗尽"
    "监盘卢众睁矫确码碍禄祸御礼税种积颖稳穷窦窃竞笔节范筑简签篮粤粮纠纪约红纹纳纽纯纸级纷纺细绍终组结绝络给统丝绢绑经综绿维纲"
    "网紧绪线缔缘编练县缩总绩织绳绘系缴继续才纤罚罗义习圣闻联聪声职听肃胁脉脑脚肤脸临台与兴举旧舱舰艰庄华万叶盖莲蒋萧艺药苏苹"
    "兰处虚号虫蜡众术卫冲里补里制复袜见规视亲觉览观触订计讯讨训托记访设许诉诊评词询试话该详志认诞误说谁课调谈请论诸诺谋谓讲谢"
    "证识谭谱议护读变让丰贝负财贡贫货贩贯责贵买贷费贴贸资贾宾赐赏赔贤卖质账赖购赛赠赞赶赵趋迹践跃车轨军软较载辅轻辆辉辈轮输转"
    "办辞农这连周进游运过达递远适迟迁选遗还边邮乡邓郑邻医酱释钉针铃铅银铜销铺钢录钱错表键钟镇镜钟铁鉴长门闪闭开闲间阅板闯关阴"
    "陈陆阳队阶际随险隐隶只虽双杂鸡离难云电雾灵静韦韩响页顶项顺须预颁顿领头频题额颜愿类顾显风飞饭饮饱饰养余馆马冯驻驾骗腾验惊"
    "体发松闹鱼鸟凤鸣丽麦面么黄点党齐齿龄龙龟"
)
_FOLD: Final = str.maketrans(_TRADITIONAL, _SIMPLIFIED)


def read_simplified(text: str) -> str:
    """`text` with its traditional characters in their simplified form (module docs)."""
    return text.translate(_FOLD)
