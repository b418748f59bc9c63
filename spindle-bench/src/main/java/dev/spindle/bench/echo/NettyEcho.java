package dev.spindle.bench.echo;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetSocketAddress;

/** The Netty echo server: NIO transport, {@code workers} event loops, one shared stateless handler. */
final class NettyEcho {
    private NettyEcho() {
    }

    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    @SuppressWarnings("deprecation") // NioEventLoopGroup: the plain NIO transport the comparison is about
    static void serve(InetSocketAddress address, int workers) throws InterruptedException {
        EventLoopGroup boss = new NioEventLoopGroup(1);
        EventLoopGroup group = new NioEventLoopGroup(workers);
        Echo echo = new Echo();
        try {
            Channel server = new ServerBootstrap().group(boss, group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ch.pipeline().addLast(echo);
                        }
                    })
                    .bind(address).sync().channel();
            EchoServer.listening(((InetSocketAddress) server.localAddress()).getPort());
            server.closeFuture().sync();
        } finally {
            boss.shutdownGracefully();
            group.shutdownGracefully();
        }
    }
}
