"""Chunk-sized passages in English and Chinese, each on its own subject, written for the tests (no benchmark data
needed, so a fresh clone runs the model tests without ../shared/data): the embedding runtimes are compared on
them, and `long_texts` joins them into texts several model windows long whose parts say different things."""

from __future__ import annotations

ENGLISH = [
    "Glaciers in the Alps have lost more than half of their volume since the middle of the nineteenth century. "
    "Meltwater from the Rhone glacier feeds Lake Geneva, and in hot summers the ice retreats by tens of metres. "
    "Scientists cover parts of the glacier with white fleece to reflect sunlight, which slows the melting near "
    "the ice grotto that tourists visit, but the method is far too expensive to protect a whole glacier.",
    "A sourdough starter is a mixture of flour and water in which wild yeasts and lactic acid bacteria live "
    "together. The bacteria give the bread its sour taste, while the yeasts produce the gas that makes the dough "
    "rise. Bakers feed the starter every day with fresh flour; a neglected starter grows a grey liquid on top, "
    "which can be poured off before the next feeding without harming the culture.",
    "Before electric lamps, lighthouse keepers trimmed wicks and polished lenses through the night. The Fresnel "
    "lens, invented in France in the 1820s, bent light from a single flame into a narrow beam visible more than "
    "twenty miles out at sea. Each lighthouse flashed its own pattern, so a sailor who counted the seconds between "
    "flashes could tell which stretch of coast lay ahead in the dark.",
    "Honeybees tell each other where flowers are by dancing. A forager returning to the hive walks a figure of "
    "eight on the vertical comb; the angle of the straight run against gravity gives the direction of the food "
    "relative to the sun, and the length of the run tells the distance. Other bees follow the dancer, smell the "
    "nectar she carries, and then fly out to the same patch of flowers.",
    "Tidal power stations use the rise and fall of the sea to turn turbines. The barrage at La Rance in Brittany "
    "has produced electricity since 1966, and its output can be predicted years ahead because the tides follow "
    "the moon. Critics point out that a barrage changes the mud flats of the estuary, where wading birds feed, "
    "and that building one across a wide bay costs a great deal of money.",
    "Medieval bookbinders sewed the folded sheets of a manuscript onto leather thongs and laced the thongs into "
    "wooden boards. The boards were then covered with leather and often fitted with metal clasps, because "
    "parchment swells in damp weather and the clasps kept the book closed and flat. Some libraries chained their "
    "most valuable volumes to the desks so that readers could not carry them away.",
    "Soils formed from volcanic ash are among the most fertile in the world. The ash weathers quickly into clay "
    "minerals that hold water and nutrients, which is why farmers have settled on the slopes of active volcanoes "
    "in Indonesia, Italy and Central America despite the danger. Coffee grown on such slopes is prized for its "
    "flavour, and vineyards near Mount Etna produce wines with a distinct mineral character.",
    "Railways forced countries to agree on a common time. Before the 1880s, every town kept its own local time "
    "set by the sun, so noon in one city could be several minutes apart from noon in the next. Timetables became "
    "confusing as trains grew faster, and in 1884 an international conference chose the meridian at Greenwich as "
    "the starting point for the world's time zones.",
    "Octopuses solve puzzles that few other invertebrates can manage. In laboratories they have learned to "
    "unscrew jar lids to reach crabs inside, and some have escaped from their tanks at night to visit "
    "neighbouring ones. Most of their neurons are found in the arms rather than the brain, so each arm can taste, "
    "touch and react to its surroundings with a surprising degree of independence.",
    "In the deserts of Iran, farmers have watered their fields for thousands of years through qanats, gently "
    "sloping tunnels dug into a hillside until they reach groundwater. Water flows out by gravity alone, and "
    "because the channel runs underground, little of it evaporates on the way to the village. Vertical shafts "
    "placed every few dozen metres let workers remove the soil and climb down for repairs.",
    "The modern rules of chess took shape in southern Europe around the end of the fifteenth century, when the "
    "queen and the bishop gained their long moves. Games became faster and more aggressive, and players began to "
    "study openings systematically. Printed books of opening analysis spread across Spain and Italy, and a few of "
    "the lines they recommended are still played by grandmasters today.",
    "Vaccines train the immune system by showing it a harmless piece of a pathogen, such as a protein from its "
    "surface. White blood cells that recognise the piece multiply, and some of them remain in the body as memory "
    "cells for years. When the real virus arrives later, those memory cells respond within days instead of weeks, "
    "which is usually fast enough to prevent serious illness.",
]

CHINESE = [
    "乌龙茶属于半发酵茶，制作时要经过晒青、摇青和杀青等工序。摇青让叶片边缘相互碰撞而轻微破损，"
    "茶多酚在空气中氧化，叶子便出现绿叶红镶边的样子。发酵程度不同，茶汤的颜色和香气也不同，"
    "轻发酵的乌龙茶带有花香，重发酵的则带有熟果香和蜜香。",
    "三峡大坝位于湖北宜昌，是世界上装机容量最大的水电站。大坝建成后，长江中下游的防洪能力明显提高，"
    "万吨级船队可以通过五级船闸直达重庆。但是水库蓄水也淹没了许多古镇和文物，一百多万居民因此迁往新的地方生活。",
    "北宋的毕昇发明了泥活字印刷术。他用胶泥刻出单个的字，再用火烧硬，排版时把字按顺序放进铁框，"
    "用松脂和蜡固定后就可以印刷。印完一版，只要把铁框加热，字就能取下来重复使用，比雕版印刷省时省料得多。",
    "每年秋天，成千上万只候鸟从西伯利亚飞到鄱阳湖越冬。白鹤对栖息地的要求很高，它们主要吃浅水中植物的块茎，"
    "水位太深或太浅都会让它们找不到食物。为了保护这些珍稀鸟类，保护区会在枯水季节调节部分湖区的水位。",
    "城市地铁一般采用第三轨或架空接触网供电。列车进站时，屏蔽门与车门同时打开，可以防止乘客跌落轨道，"
    "也能减少隧道里的热空气进入站台。高峰时段的发车间隔可以缩短到两分钟以内，这要依靠自动驾驶和信号系统的精确配合。",
    "大熊猫虽然属于食肉目，却几乎只吃竹子。竹子的营养很低，一只成年大熊猫每天要花十多个小时进食，"
    "吃下十几公斤竹子。它们的前掌有一块特殊的腕骨，像第六根手指一样，帮助它们牢牢握住竹竿。",
    "丝绸之路并不是一条单一的道路，而是连接东亚、中亚和地中海的许多商路的总称。商人们用骆驼运送丝绸、"
    "瓷器和茶叶，再把香料、玻璃和良马带回中原。佛教、音乐和天文知识也沿着这些道路传播，敦煌的壁画就是这种交流的见证。",
    "云南元阳的哈尼梯田已经有一千多年的历史。山顶的森林涵养水源，泉水顺着沟渠流进层层梯田，"
    "最后汇入山谷中的河流，形成森林、村寨、梯田和水系四位一体的农业景观。冬天梯田灌满了水，在阳光下像一面面镜子。",
    "春节前，许多家庭要大扫除，寓意把旧年的晦气扫出门去。除夕晚上全家人一起吃年夜饭，北方人常包饺子，"
    "南方人则喜欢吃年糕和鱼，取年年有余的意思。长辈会给孩子发压岁钱，大家守岁到午夜，迎接新年的到来。",
    "晶体硅太阳能电池利用半导体的光电效应发电。阳光照射到硅片上，光子把电子从原子中激发出来，"
    "在电池内部电场的作用下形成电流。近年来电池的转换效率不断提高，组件价格却大幅下降，光伏发电在许多地区已经比煤电更便宜。",
    "围棋起源于中国，至少已有两千五百年的历史。棋盘由纵横各十九条线组成，双方轮流在交叉点上落子，"
    "以围住的地盘多少定胜负。规则虽然简单，变化却极其复杂，直到二零一六年，计算机程序才第一次战胜世界顶尖的职业棋手。",
    "黄河流经黄土高原时带走了大量泥沙，因此河水呈黄色。泥沙在下游沉积，使河床逐年抬高，"
    "有些河段的河床甚至高出两岸的地面，被称为地上河。历史上黄河多次决口改道，治理黄河一直是历代王朝的大事。",
]


def long_texts() -> list[str]:
    """Texts of two to three model windows (512 tokens), each part on other subjects: the first window is not the
    whole text's meaning, as it is for a repeated or a barely-too-long text."""
    return ["\n\n".join(ENGLISH), "\n\n".join(ENGLISH[::-1]), "".join(CHINESE), "".join(CHINESE[::-1]),
            "\n\n".join([*ENGLISH[:6], *CHINESE[6:]]), "\n\n".join([*CHINESE[:6], *ENGLISH[6:]])]
